// Which deliveries on the kit's webhooks the kit caused, and whether each may have reached the
// webhook it reached. An event is the kit's when its data carries an id the kit created or chose;
// the webhook's states are what the target answered about it during the run. A kit-caused event on
// a webhook that was never enabled, or never subscribed to its type, breaks the fan-out rules; a
// test event raised for one webhook (`webhook_id`) must reach only that one. Other clients' events
// on a shared target are legal and only counted.
import type { KitContext } from '../context.ts';
import type { Exchange } from '../http.ts';
import { raiseEvent, SIMULATOR_PATH } from '../raise.ts';
import type { Delivery } from '../receiver.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { ContractViolation, type Discrepancy } from '../verify.ts';
import { chosenIds } from './event-run.ts';
import { bodyWith, breach, crudNamed, distinct, type Json, parseBody, ruleViolation, sink, subscribe } from './rule-support.ts';

/** What the target said about one webhook the kit created, over the run. */
interface WebhookSeen {
  everEnabled: boolean;
  everSubscribed: Set<string>;
}

/** A test event the kit raised for one webhook: its type, the data it asked for, the webhook. */
interface TargetedRaise {
  event: string;
  data: Json;
  webhookId: string;
}

export interface Attribution {
  /** Deliveries on the kit's webhooks of events it caused, judged. */
  judged: number;
  /** Deliveries of events it did not cause (another client's), left alone. */
  foreign: number;
  violations: Discrepancy[];
}

const json = (exchange: Exchange) => (exchange.json ?? {}) as Json;
const pathOf = (exchange: Exchange) => new URL(exchange.request.url).pathname;
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

/** The kit's webhooks by id (created by it), with every state the target answered for them. */
function kitWebhooks(exchanges: readonly Exchange[], collection: string): Map<string, WebhookSeen> {
  const seen = new Map<string, WebhookSeen>();
  for (const exchange of exchanges) {
    if (!ok(exchange) || !pathOf(exchange).startsWith(collection)) continue;
    const body = json(exchange);
    const id = typeof body.id === 'string' ? body.id : undefined;
    if (!id) continue;
    if (exchange.request.method === 'POST' && pathOf(exchange) === collection)
      seen.set(id, { everEnabled: false, everSubscribed: new Set() });
    const webhook = seen.get(id);
    if (!webhook) continue;
    if (body.enabled === true) webhook.everEnabled = true;
    if (Array.isArray(body.events)) for (const type of body.events) if (typeof type === 'string') webhook.everSubscribed.add(type);
  }
  return seen;
}

/** Ids the kit made the target create, and the ids it chose for the events it raised. */
function kitIds(exchanges: readonly Exchange[]): Set<string> {
  const ids = new Set<string>();
  for (const exchange of exchanges) {
    if (!ok(exchange) || exchange.request.method !== 'POST') continue;
    const id = json(exchange).id;
    if (typeof id === 'string') ids.add(id);
    for (const raise of targetedRaises([exchange]))
      for (const value of Object.values(raise.data)) if (typeof value === 'string') ids.add(value);
  }
  return ids;
}

function targetedRaises(exchanges: readonly Exchange[]): TargetedRaise[] {
  return exchanges.flatMap((exchange) => {
    if (!ok(exchange) || exchange.request.method !== 'POST' || pathOf(exchange) !== SIMULATOR_PATH) return [];
    const body = JSON.parse(exchange.request.body ?? '{}') as { event?: unknown; data?: unknown; webhook_id?: unknown };
    if (typeof body.event !== 'string' || typeof body.webhook_id !== 'string') return [];
    return [{ event: body.event, data: (body.data ?? {}) as Json, webhookId: body.webhook_id }];
  });
}

const carries = (data: Json | undefined, wanted: Json) => data !== undefined && Object.entries(wanted).every(([k, v]) => data[k] === v);

/** Judges every delivery the receiver got on the kit's webhooks so far. */
export function attributeDeliveries(ctx: KitContext, deliveries: readonly Delivery[], collection: string): Attribution {
  const webhooks = kitWebhooks(ctx.exchanges, collection);
  const ids = kitIds(ctx.exchanges);
  const raises = targetedRaises(ctx.exchanges);
  const violations: Discrepancy[] = [];
  let judged = 0;
  let foreign = 0;
  const flag = (rule: RuleId, message: string, delivery: Delivery) =>
    violations.push(ruleViolation(rule, message, [`X-Service-Delivery: ${String(delivery.headers['x-service-delivery'])}`]));
  for (const delivery of deliveries) {
    const webhookId = String(delivery.headers['x-service-webhook-id'] ?? '');
    const webhook = webhooks.get(webhookId);
    if (!webhook) continue;
    const body = parseBody(delivery);
    const type = String(delivery.headers['x-service-event'] ?? body?.event);
    const data = body?.data;
    if (!Object.values(data ?? {}).some((value) => typeof value === 'string' && ids.has(value))) {
      foreign++;
      continue;
    }
    judged++;
    if (!webhook.everEnabled)
      flag('schema.WebhookCreate.2', `the kit's ${type} reached ${webhookId}, which was disabled from its creation on`, delivery);
    else if (!webhook.everSubscribed.has(type))
      flag('webhooks.2', `the kit's ${type} reached ${webhookId}, which was never subscribed to ${type}`, delivery);
    const raise = raises.find((r) => r.event === type && carries(data, r.data));
    if (raise && raise.webhookId !== webhookId)
      flag(
        'test-support-not-part-of-the-v1-contract.4',
        `a ${type} raised with webhook_id ${raise.webhookId} also reached ${webhookId}`,
        delivery,
      );
  }
  return { judged, foreign, violations };
}

/** The webhooks of the scenario below: `other` takes the test event's type too, but is not its target. */
const SCENARIO = { caused: 'finding.created', raised: 'scan.completed' } as const;

/**
 * `delivery-attribution`: gives the target every chance to misroute (a disabled webhook and one
 * subscribed only to the raised type beside the one that should get both events), causes a
 * finding.created and raises a scan.completed for that one webhook, waits for both to arrive
 * there, then judges every delivery the run's webhooks got so far.
 */
export async function deliveryAttribution(ctx: KitContext, check: string): Promise<{ note: string }> {
  const [webhooks, findings] = [crudNamed(ctx, 'webhooks'), crudNamed(ctx, 'findings')];
  const subject = ctx.model.webhooks.find((w) => w.event === SCENARIO.caused)?.label ?? `webhook ${SCENARIO.caused}`;
  const target = await sink(ctx, 'attribution');
  const both = [SCENARIO.caused, SCENARIO.raised];
  const control = await subscribe(ctx, check, `${target.url}/control`, both);
  await subscribe(ctx, check, `${target.url}/disabled`, both, { enabled: false });
  await subscribe(ctx, check, `${target.url}/other`, [SCENARIO.raised]);
  const { id: findingId } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: null }));
  // A trigger command cannot address one webhook: only the simulator raises a targeted event.
  const raisable = ctx.model.webhooks.find((w) => w.event === SCENARIO.raised && !ctx.options.eventsOutOfScope.includes(w.event));
  const raised =
    raisable && !ctx.options.triggerCommand
      ? await raiseEvent(ctx, { event: SCENARIO.raised, webhookId: control.id, data: chosenIds(ctx, raisable) })
      : undefined;
  const expected = raised && 'raised' in raised ? 2 : 1;
  const atControl = () => distinct(target.deliveries().filter((d) => d.path === `${target.path}/control`));
  const waited = await target.waitFor(() => atControl().length >= expected, `${expected} deliveries at the control webhook`);
  if (!atControl().some((d) => parseBody(d)?.data?.finding_id === findingId))
    breach(
      subject,
      check,
      'webhooks.2',
      `the finding.created of ${findingId} never reached the enabled, subscribed webhook ${control.id}`,
      [`the kit waited ${waited.waitedMs} ms`],
    );
  const receiver = await ctx.receiver();
  const attribution = attributeDeliveries(ctx, receiver.deliveries, webhooks.collectionPath);
  if (attribution.violations.length > 0) throw new ContractViolation(subject, check, attribution.violations);
  return {
    note: `${attribution.judged} deliveries of the kit's events judged on its webhooks; ${attribution.foreign} of other clients' events left alone`,
  };
}
