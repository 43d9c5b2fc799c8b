// What a run will touch besides its own resources: the enabled webhooks it did not create whose
// subscriptions its events will reach. The findings every run creates raise finding.created (and
// resolving them finding.resolved and compliance.changed) for every subscriber of the target, not
// only the kit's; events raised through a trigger command may too. Listed by id and event types,
// never by URL (a URL may carry a token).

import type { KitContext } from './context.ts';
import { isRaisable } from './raise.ts';

export interface ForeignWebhook {
  id: string;
  /** The event types of its subscription that the kit's run will raise. */
  reached: string[];
}

/** Most pages the kit reads of the webhook list; past it the listing says it stopped. */
const MAX_PAGES = 20;

/** Event types whose events reach every subscriber: the API-caused ones, and raised ones unless the simulator targets the kit's webhook. */
export function typesReachingEveryone(ctx: KitContext): string[] {
  const types = ctx.model.webhooks.map((webhook) => webhook.event);
  const viaCommand = ctx.options.triggerCommand !== undefined && ctx.options.events === 'check';
  return types.filter((type) => !isRaisable(type) || (viaCommand && !ctx.options.eventsOutOfScope.includes(type)));
}

/** Every enabled webhook on the target (none created by the kit yet) subscribed to a type the run raises. */
export async function foreignSubscribers(ctx: KitContext): Promise<{ webhooks: ForeignWebhook[]; complete: boolean }> {
  const list = ctx.model.resources.find((resource) => resource.name === 'webhooks')?.list;
  // A stateless target (a mock) keeps no subscriptions and sends nothing: its list is examples.
  if (!list || ctx.options.profile === 'stateless') return { webhooks: [], complete: true };
  const reaching = new Set(typesReachingEveryone(ctx));
  const webhooks: ForeignWebhook[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const exchange = await ctx.send(list, { query: { limit: '100', ...(cursor ? { cursor } : {}) } });
    const body = exchange.json as { data?: { id?: unknown; events?: unknown; enabled?: unknown }[]; next_cursor?: unknown } | undefined;
    if (exchange.status !== 200 || !Array.isArray(body?.data)) return { webhooks, complete: false };
    for (const item of body.data) {
      if (item.enabled === false || typeof item.id !== 'string' || !Array.isArray(item.events)) continue;
      const reached = item.events.filter((type): type is string => typeof type === 'string' && reaching.has(type));
      if (reached.length > 0) webhooks.push({ id: item.id, reached });
    }
    cursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
    if (cursor === null) return { webhooks, complete: true };
  }
  return { webhooks, complete: false };
}

export function describeForeign({ webhooks, complete }: { webhooks: ForeignWebhook[]; complete: boolean }): string[] {
  const more = complete ? '' : ` (the first ${MAX_PAGES * 100} webhooks read; there may be more)`;
  if (webhooks.length === 0) return [`touches: no enabled webhook of anyone else is subscribed to the events this run raises${more}`];
  return [
    `touches: ${webhooks.length} enabled webhook${webhooks.length === 1 ? '' : 's'} the kit did not create will get this run's events${more} (point the kit at an isolated target, or refuse with --no-foreign-deliveries):`,
    ...webhooks.map((webhook) => `  ${webhook.id}: ${webhook.reached.join(', ')}`),
  ];
}
