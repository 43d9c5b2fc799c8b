// What the behaviour checks (the rules the document states in words) share: the CRUD resources by
// name, request bodies built from generated valid ones, defaults read from the schema, and a webhook
// on a path of the kit's receiver that only this check uses.
import { randomBytes, randomUUID } from 'node:crypto';
import type { KitContext } from '../../context.ts';
import type { AnyCheck } from '../../failure.ts';
import type { Delivery, Responder, Waited } from '../../receiver.ts';
import { schemaAt } from '../../spec.ts';
import { isCrud } from './stateful.ts';

export function crudNamed(ctx: KitContext, name: string) {
  const resource = ctx.model.resources.find((r) => r.name === name);
  if (!resource || !isCrud(resource)) throw new Error(`the document has no CRUD resource ${name}`);
  return resource;
}

export type Json = Record<string, unknown>;

/** One generated valid body of the operation with `fields` set over it. */
export async function bodyWith(ctx: KitContext, op: Parameters<KitContext['validBodies']>[0], fields: Json = {}): Promise<Json> {
  const [body] = await ctx.validBodies(op, 1);
  return { ...(body as Json), ...fields };
}

/** A finding update body moving to `status`, with a resolution of the matching kind when it needs one. */
export function findingUpdate(current: Json, status: string, extra: Json = {}): Json {
  const reason = status === 'resolved' ? 'fixed' : status === 'suppressed' ? 'false_positive' : undefined;
  return {
    title: current.title,
    severity: current.severity,
    description: current.description,
    policy_id: current.policy_id ?? null,
    status,
    ...(reason ? { resolution: { reason } } : {}),
    ...extra,
  };
}

/** The `default` of a schema, following `$ref` and `allOf`; `undefined` when it has none. */
export function defaultOf(ctx: KitContext, schema: Json | undefined): { value: unknown } | undefined {
  if (!schema) return undefined;
  if ('default' in schema) return { value: schema.default };
  if (typeof schema.$ref === 'string') return defaultOf(ctx, schemaAt(ctx.model.doc, schema.$ref));
  for (const part of (schema.allOf as Json[] | undefined) ?? []) {
    const found = defaultOf(ctx, part);
    if (found) return found;
  }
  return undefined;
}

export interface Sink {
  /** The URL to subscribe (unique to this use). */
  url: string;
  path: string;
  deliveries(): Delivery[];
  /**
   * Waits until `done` holds for this sink's deliveries; says how long it waited. Without
   * `timeoutMs`, for deliveries the target owes: the kit's event timeout, following the target's
   * pace (Receiver.waitUntil); with it, exactly that long (a moment for deliveries that must not come).
   */
  waitFor(done: (deliveries: Delivery[]) => boolean, what: string, timeoutMs?: number): Promise<Waited & { what: string }>;
}

/** A fresh path on the kit's receiver, answered by `responder` (204 by default). */
export async function sink(ctx: KitContext, name: string, responder?: Responder): Promise<Sink> {
  const receiver = await ctx.receiver();
  const path = `/rules/${name}/${randomUUID()}`;
  if (responder) receiver.answer(path, responder);
  const mine = () => receiver.deliveries.filter((d) => d.path.startsWith(path));
  return {
    url: receiver.url + path,
    path,
    deliveries: mine,
    async waitFor(done, what, timeoutMs) {
      const waited = await receiver.waitUntil(
        () => done(mine()),
        timeoutMs ?? ctx.options.eventTimeoutMs,
        timeoutMs === undefined ? 'paced' : 'fixed',
      );
      return { ...waited, what };
    },
  };
}

export const newSecret = () => `kit_${randomBytes(24).toString('hex')}`;

export function parseBody(delivery: Delivery): { event?: string; data?: Json } | undefined {
  try {
    return JSON.parse(delivery.raw.toString('utf8')) as { event?: string; data?: Json };
  } catch {
    return undefined;
  }
}

export const deliveryId = (delivery: Delivery) => String(delivery.headers['x-service-delivery']);

/** Distinct deliveries (by X-Service-Delivery) of one event type. */
export function distinct(deliveries: Delivery[], event?: string): Delivery[] {
  const seen = new Map<string, Delivery>();
  for (const d of deliveries) if (!event || parseBody(d)?.event === event) seen.set(deliveryId(d), seen.get(deliveryId(d)) ?? d);
  return [...seen.values()];
}

/** Creates a webhook for `events` pointing at `url`; returns its id and the answer. */
export async function subscribe(
  ctx: KitContext,
  check: AnyCheck,
  url: string,
  events: string[],
  extra: Json = {},
): Promise<{ id: string; json: Json }> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const { id, exchange } = await ctx.create(
    webhooks,
    check,
    await bodyWith(ctx, webhooks.create, { url, events, enabled: true, ...extra }),
  );
  return { id, json: exchange.json as Json };
}

/** Whether the event checks can run: a receiver the target can reach. */
export function eventsSkipped(ctx: KitContext): string | undefined {
  return ctx.options.events === 'skip' ? 'events skipped (--events skip): the target cannot reach the kit’s receiver' : undefined;
}
