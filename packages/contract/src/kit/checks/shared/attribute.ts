// Which deliveries on the kit's webhooks the kit caused, and whether each may have reached the
// webhook it reached. An event is the kit's when its data carries an id the kit created or chose;
// the webhook's states are what the target answered about it during the run. A kit-caused event on
// a webhook that was never enabled, or never subscribed to its type, breaks the fan-out rules; a
// test event raised for one webhook (`webhook_id`) must reach only that one. Other clients' events
// on a shared target are legal and only counted.

import type { KitContext } from '../../context.ts';
import type { Check } from '../../failure.ts';
import type { Exchange } from '../../http.ts';
import { SIMULATOR_PATH } from '../../raise.ts';
import type { Delivery } from '../../receiver.ts';
import type { Discrepancy } from '../../verify.ts';
import { type Json, parseBody } from './rule-support.ts';

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

/** Whether an event's `data` carries every field of `wanted` (the ids the kit chose when it raised it). */
export const carries = (data: Json | undefined, wanted: Json) =>
  data !== undefined && Object.entries(wanted).every(([k, v]) => data[k] === v);

/** A delivery on one of the kit's webhooks of an event the kit caused (its data carries an id the kit made). */
interface Own {
  delivery: Delivery;
  webhookId: string;
  webhook: WebhookSeen;
  type: string;
  data: Json | undefined;
}

/** The deliveries on the kit's webhooks: the kit's own, and how many carry another client's events. */
function onKitWebhooks(ctx: KitContext, deliveries: readonly Delivery[], collection: string): { own: Own[]; foreign: number } {
  const webhooks = kitWebhooks(ctx.exchanges, collection);
  const ids = kitIds(ctx.exchanges);
  const own: Own[] = [];
  let foreign = 0;
  for (const delivery of deliveries) {
    const webhookId = String(delivery.headers['x-service-webhook-id'] ?? '');
    const webhook = webhooks.get(webhookId);
    if (!webhook) continue;
    const body = parseBody(delivery);
    const data = body?.data;
    if (!Object.values(data ?? {}).some((value) => typeof value === 'string' && ids.has(value))) foreign++;
    else own.push({ delivery, webhookId, webhook, type: String(delivery.headers['x-service-event'] ?? body?.event), data });
  }
  return { own, foreign };
}

/** How many deliveries on the kit's webhooks carry another client's events. */
export const foreignDeliveries = (ctx: KitContext, deliveries: readonly Delivery[], collection: string): number =>
  onKitWebhooks(ctx, deliveries, collection).foreign;

/** The rules a delivery's recipient breaks: a check that judges them lists them all. */
export type AttributionRule = 'schema.WebhookCreate.2' | 'webhooks.2' | 'test-support-not-part-of-the-v1-contract.4';

/** Judges every delivery the receiver got on the kit's webhooks so far. */
export function attributeDeliveries(
  ctx: KitContext,
  check: Check<AttributionRule>,
  deliveries: readonly Delivery[],
  collection: string,
): Attribution {
  const { own, foreign } = onKitWebhooks(ctx, deliveries, collection);
  const raises = targetedRaises(ctx.exchanges);
  const violations: Discrepancy[] = [];
  const flag = (rule: AttributionRule, message: string, delivery: Delivery) =>
    violations.push(
      ...check.found({ rule, observed: message, details: [`X-Service-Delivery: ${String(delivery.headers['x-service-delivery'])}`] }),
    );
  for (const { delivery, webhookId, webhook, type, data } of own) {
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
  return { judged: own.length, foreign, violations };
}
