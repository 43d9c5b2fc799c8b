// The event scenario, run once per kit run: subscribe the loopback receiver (signed, all event
// types, plus an unsigned webhook), cause events through the API (finding.created,
// compliance.changed, finding.resolved) and raise the others through the test-support interface
// (the simulator or --trigger-command, see raise.ts). A delivery is the kit's own when it carries
// the ids the kit created or chose.

import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { KitContext } from '../../context.ts';
import type { AnyCheck } from '../../failure.ts';
import { createGenerator, samples } from '../../generate.ts';
import type { Exchange } from '../../http.ts';
import { raiseEvent } from '../../raise.ts';
import type { Delivery } from '../../receiver.ts';
import type { ResourceModel, WebhookModel } from '../../spec.ts';
import { carries, foreignDeliveries } from './attribute.ts';

/** Generated valid update bodies the kit picks a `resolved` one from (generated, never sent). */
const UPDATE_POOL = 96;

export interface EventRun {
  webhookId: string;
  unsignedWebhookId: string;
  secret: string;
  /** When the kit began causing events (its clock, ms): none of its events happened before. */
  startedAt: number;
  signedPath: string;
  unsignedPath: string;
  /** What the kit did to cause each event type, for messages. */
  causes: Map<string, string>;
  /** Event types the target could not be made to send (no simulator), with the reason. */
  notCaused: Map<string, string>;
  /** Event types the target's simulator refused to emit (a failure, not a skip). */
  refused: Map<string, string>;
  /** Values the API-caused events must carry (finding id, policy id). */
  expectedData: Map<string, Record<string, unknown>>;
  /** The kit's own deliveries on its two webhooks: those carrying what it caused (see `isOwn`). */
  deliveries: Delivery[];
  /** True for a delivery of an event the kit caused: its data carries the ids the kit created or chose. */
  isOwn(delivery: Delivery): boolean;
  /** Types raised by --trigger-command whose delivery was recognised by its arrival, not by the kit's ids. */
  recognisedByArrival: string[];
  /** How many deliveries on the kit's webhooks were of events it did not cause, so far. */
  foreign(): number;
  /** What the kit waited for after causing the events, whether it came, and how long it took. */
  waited: { what: string; met: boolean; waitedMs: number };
}

/** The scenario's outcome and the requests it made, kept apart from the check that happened to start it. */
const runs = new WeakMap<KitContext, { run: Promise<EventRun>; log: Exchange[] }>();

/**
 * Runs the event scenario once per kit run; every webhook check reads its outcome, and gets the
 * requests that made the webhooks and caused the events in its own log (its failure's replay
 * repeats them), whichever check started it.
 */
export async function eventRun(ctx: KitContext, check: AnyCheck): Promise<EventRun> {
  let known = runs.get(ctx);
  if (!known) {
    const log: Exchange[] = [];
    const run = ctx.shared(() => ctx.recording(log, () => causeEvents(ctx, check)));
    known = { run, log };
    runs.set(ctx, known);
    ctx.countForeignDeliveries(async () => (await run.catch(() => undefined))?.foreign() ?? 0);
  }
  try {
    return await known.run;
  } finally {
    ctx.record(known.log);
  }
}

function resource(ctx: KitContext, name: string): ResourceModel {
  const found = ctx.model.resources.find((r) => r.name === name);
  if (!found?.create) throw new Error(`the document has no create operation for ${name}`);
  return found;
}

async function causeEvents(ctx: KitContext, check: AnyCheck): Promise<EventRun> {
  const startedAt = Date.now();
  const receiver = await ctx.receiver();
  const token = randomUUID();
  const signedPath = `/events/${token}`;
  const unsignedPath = `/events-unsigned/${token}`;
  const secret = `kit_${randomBytes(24).toString('hex')}`;
  const types = ctx.model.webhooks.map((w) => w.event);
  const webhooks = resource(ctx, 'webhooks');
  const [base] = await ctx.validBodies(webhooks.create!, 1);
  const signed = await ctx.create(webhooks, check, {
    ...(base as object),
    url: receiver.url + signedPath,
    events: types,
    secret,
    enabled: true,
  });
  const unsigned = await ctx.create(webhooks, check, {
    ...(base as object),
    url: receiver.url + unsignedPath,
    events: [types[0]],
    enabled: true,
    secret: undefined,
  });

  const causes = new Map<string, string>();
  const expectedData = new Map<string, Record<string, unknown>>();
  const policies = resource(ctx, 'policies');
  const findings = resource(ctx, 'findings');
  const { id: policyId } = await ctx.create(policies, check);
  const [findingBody] = await ctx.validBodies(findings.create!, 1);
  const { id: findingId } = await ctx.create(findings, check, { ...(findingBody as object), policy_id: policyId });
  causes.set('finding.created', `POST ${findings.collectionPath} (${findingId})`);
  causes.set('compliance.changed', `a finding (${findingId}) referencing policy ${policyId} was created and then resolved`);
  expectedData.set('finding.created', { finding_id: findingId, policy_id: policyId });
  expectedData.set('compliance.changed', { policy_id: policyId });

  const updates = await ctx.validBodies(findings.update!, UPDATE_POOL);
  const resolve = updates.find((body) => (body as { status?: string }).status === 'resolved');
  if (!resolve) throw new Error('no valid finding update with status resolved was generated');
  const resolved = await ctx.send(findings.update!, { id: findingId, body: { ...(resolve as object), policy_id: policyId } });
  check.conform(findings.update!, resolved, { statuses: [200] }, 'resolving the finding to cause finding.resolved');
  causes.set('finding.resolved', `PUT ${findings.itemPath} status=resolved (${findingId})`);
  expectedData.set('finding.resolved', { finding_id: findingId, policy_id: policyId });

  // Which delivery is the kit's own: the ids it created (API events) or chose (raised events).
  const identity = new Map<string, Record<string, unknown>>([
    ['finding.created', { finding_id: findingId }],
    ['finding.resolved', { finding_id: findingId }],
    ['compliance.changed', { policy_id: policyId }],
  ]);
  const notCaused = new Map<string, string>();
  const refused = new Map<string, string>();
  // When each trigger command was started: its event may come with ids of its own (see byArrival).
  const commandStarted = new Map<string, number>();
  const outOfScope = new Set(ctx.options.eventsOutOfScope);
  for (const webhook of ctx.model.webhooks.filter((w) => !causes.has(w.event) && !outOfScope.has(w.event))) {
    const data = chosenIds(ctx, webhook);
    identity.set(webhook.event, data);
    expectedData.set(webhook.event, data);
    const started = Date.now();
    const outcome = await raiseEvent(ctx, { event: webhook.event, webhookId: signed.id, data });
    if ('raised' in outcome && ctx.options.triggerCommand) commandStarted.set(webhook.event, started);
    if ('cannot' in outcome) notCaused.set(webhook.event, outcome.cannot);
    else if ('refused' in outcome) refused.set(webhook.event, outcome.refused);
    else causes.set(webhook.event, outcome.raised);
  }

  const carriesIds = (delivery: Delivery) => {
    const wanted = identity.get(eventOf(delivery));
    const data = (parse(delivery) as { data?: Record<string, unknown> } | undefined)?.data;
    return wanted !== undefined && carries(data, wanted);
  };
  // A trigger command that cannot pass the kit's ids on (a device simulator with ids of its own):
  // its event is the first delivery of that type on the kit's signed webhook after the command
  // started, unless one with the kit's ids came.
  const byArrival = (delivery: Delivery) => {
    const type = eventOf(delivery);
    const started = commandStarted.get(type);
    if (started === undefined || delivery.path !== signedPath) return false;
    const ofType = receiver.deliveries.filter((d) => d.path === signedPath && eventOf(d) === type && d.receivedAt >= started);
    if (ofType.some(carriesIds)) return false;
    return ofType.length > 0 && ofType[0]!.headers['x-service-delivery'] === delivery.headers['x-service-delivery'];
  };
  const isOwn = (delivery: Delivery) => carriesIds(delivery) || byArrival(delivery);
  const wanted = [...causes.keys()];
  // Counted by X-Service-Delivery, not by request: a retry of one delivery (a lost acknowledgement)
  // is legal and must not stand in for another event. compliance.changed comes twice:
  // non_compliant, then compliant again. Only the kit's own events count.
  const expectedEvents = wanted.length + (causes.has('compliance.changed') ? 1 : 0);
  const what = `${expectedEvents} distinct deliveries of the kit's own events (${wanted.join(', ')}; compliance.changed twice) at ${signedPath}, and one at ${unsignedPath}`;
  const distinctIds = (deliveries: Delivery[], path: string) =>
    new Set(
      deliveries
        .filter((d) => d.path === path && wanted.includes(eventOf(d)) && isOwn(d))
        .map((d) => String(d.headers['x-service-delivery'])),
    ).size;
  const { met, waitedMs } = await receiver.waitUntil(
    (deliveries) => distinctIds(deliveries, signedPath) >= expectedEvents && distinctIds(deliveries, unsignedPath) >= 1,
    ctx.options.eventTimeoutMs,
    'paced',
  );
  const mine = (d: Delivery) => d.path === signedPath || d.path === unsignedPath;
  const recognisedByArrival = [...commandStarted.keys()].filter((type) =>
    receiver.deliveries.some((d) => eventOf(d) === type && !carriesIds(d) && byArrival(d)),
  );
  for (const type of recognisedByArrival) {
    // What the kit asked the command to carry cannot be expected of a command that does not pass it on.
    expectedData.delete(type);
    causes.set(
      type,
      `${causes.get(type)}, recognised as the first ${type} on the kit's webhook after the command started (it did not carry the ids in {data})`,
    );
  }
  return {
    recognisedByArrival,
    webhookId: signed.id,
    unsignedWebhookId: unsigned.id,
    secret,
    startedAt,
    signedPath,
    unsignedPath,
    causes,
    notCaused,
    refused,
    expectedData,
    deliveries: receiver.deliveries.filter((d) => mine(d) && isOwn(d)),
    isOwn,
    // Other clients' events on any of the kit's webhooks: the kit's own from other checks are not theirs.
    foreign: () => foreignDeliveries(ctx, receiver.deliveries, webhooks.collectionPath),
    waited: { what, met, waitedMs },
  };
}

/**
 * The id fields of a generated valid `data` of the event, with random values: what the kit asks
 * the raised event to carry, so it knows its own delivery among anyone else's.
 */
export function chosenIds(ctx: KitContext, webhook: WebhookModel): Record<string, unknown> {
  const [body] = samples(createGenerator(ctx.model.doc).arbitrary({ $ref: webhook.bodyPointer }), 1, randomInt(2 ** 31));
  const data = (body as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  return Object.fromEntries(Object.entries(data).filter(([field, value]) => field.endsWith('_id') && typeof value === 'string'));
}

/** A delivery's event type: the body's `event`, or its X-Service-Event header (which the delivery check compares with it). */
export function eventOf(delivery: Delivery): string {
  return String((parse(delivery) as { event?: string } | undefined)?.event ?? delivery.headers['x-service-event']);
}

export function parse(delivery: Delivery): unknown {
  try {
    return JSON.parse(delivery.raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
