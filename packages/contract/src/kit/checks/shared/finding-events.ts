// What the event checks share to cause events: a finding created (whose finding.created the
// webhooks await), the label a webhook's event is filed under, and how long to wait for deliveries
// that must not come.
import type { KitContext } from '../../context.ts';
import type { AnyCheck } from '../../failure.ts';
import type { Delivery } from '../../receiver.ts';
import { bodyWith, crudNamed, type Json, parseBody } from './rule-support.ts';

/** After the expected deliveries came, how long the kit waits for ones that must not come. */
export const GRACE_MS = 1000;
export const label = (ctx: KitContext, event: string) => ctx.model.webhooks.find((w) => w.event === event)?.label ?? `webhook ${event}`;
export const findingOf = (d: Delivery) => parseBody(d)?.data?.finding_id;

export async function createFinding(ctx: KitContext, check: AnyCheck, fields: Json = {}): Promise<{ id: string; json: Json }> {
  const findings = crudNamed(ctx, 'findings');
  const { id, exchange } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: null, ...fields }));
  return { id, json: exchange.json as Json };
}
