// Event checks: subscribe the loopback receiver (signed, all event types, plus an unsigned
// webhook), cause events through the API (finding.created, compliance.changed, finding.resolved)
// and raise the others through the test-support interface (the simulator or --trigger-command,
// see raise.ts), then check every delivery of the kit's own events — known by the ids the kit
// created or chose — for its body against its webhook schema, its headers against the webhook's
// header parameters, and its signature with lib/signing.ts. Other deliveries on the kit's webhooks
// (another client's findings on a shared target) are legal; they are counted and left alone.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { verifySignature, SIGNATURE_HEADER } from '../../../../lib/signing.ts';
import type { KitContext } from '../context.ts';
import { createGenerator, samples } from '../generate.ts';
import { raiseEvent } from '../raise.ts';
import type { Delivery } from '../receiver.ts';
import type { ResourceModel, WebhookModel } from '../spec.ts';
import { standardHeaderViolations } from './signature-rules.ts';
import { ajvDetails, ContractViolation, headerViolations, truncate, type Violation } from '../verify.ts';

/** The event types the kit causes through /v1 operations; the others need the test-support interface. */
export const API_CAUSED_EVENTS = ['finding.created', 'compliance.changed', 'finding.resolved'] as const;

/** Generated valid update bodies the kit picks a `resolved` one from (generated, never sent). */
const UPDATE_POOL = 96;

export interface EventRun {
  webhookId: string;
  unsignedWebhookId: string;
  secret: string;
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
  /** How many deliveries on the kit's webhooks were of events it did not cause, so far. */
  foreign(): number;
  /** What the kit waited for after causing the events, whether it came, and how long it took. */
  waited: { what: string; met: boolean; waitedMs: number };
}

const runs = new WeakMap<KitContext, Promise<EventRun>>();

/** Runs the event scenario once per kit run; every webhook check reads its outcome. */
export function eventRun(ctx: KitContext): Promise<EventRun> {
  let run = runs.get(ctx);
  if (!run) {
    run = causeEvents(ctx);
    runs.set(ctx, run);
  }
  return run;
}

function resource(ctx: KitContext, name: string): ResourceModel {
  const found = ctx.model.resources.find((r) => r.name === name);
  if (!found?.create) throw new Error(`the document has no create operation for ${name}`);
  return found;
}

async function causeEvents(ctx: KitContext): Promise<EventRun> {
  const receiver = await ctx.receiver();
  const token = randomUUID();
  const signedPath = `/events/${token}`;
  const unsignedPath = `/events-unsigned/${token}`;
  const secret = `kit_${randomBytes(24).toString('hex')}`;
  const types = ctx.model.webhooks.map((w) => w.event);
  const webhooks = resource(ctx, 'webhooks');
  const [base] = await ctx.validBodies(webhooks.create!, 1);
  const signed = await ctx.create(webhooks, 'delivery', { ...(base as object), url: receiver.url + signedPath, events: types, secret, enabled: true });
  const unsigned = await ctx.create(webhooks, 'delivery', { ...(base as object), url: receiver.url + unsignedPath, events: [types[0]], enabled: true, secret: undefined });

  const causes = new Map<string, string>();
  const expectedData = new Map<string, Record<string, unknown>>();
  const policies = resource(ctx, 'policies');
  const findings = resource(ctx, 'findings');
  const { id: policyId } = await ctx.create(policies, 'delivery');
  const [findingBody] = await ctx.validBodies(findings.create!, 1);
  const { id: findingId } = await ctx.create(findings, 'delivery', { ...(findingBody as object), policy_id: policyId });
  causes.set('finding.created', `POST ${findings.collectionPath} (${findingId})`);
  causes.set('compliance.changed', `a finding (${findingId}) referencing policy ${policyId} was created and then resolved`);
  expectedData.set('finding.created', { finding_id: findingId, policy_id: policyId });
  expectedData.set('compliance.changed', { policy_id: policyId });

  const updates = await ctx.validBodies(findings.update!, UPDATE_POOL);
  const resolve = updates.find((body) => (body as { status?: string }).status === 'resolved');
  if (!resolve) throw new Error('no valid finding update with status resolved was generated');
  const resolved = await ctx.send(findings.update!, { id: findingId, body: { ...(resolve as object), policy_id: policyId } });
  ctx.expect(findings.update!, 'delivery', resolved, { statuses: [200] }, 'resolving the finding to cause finding.resolved');
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
  const outOfScope = new Set(ctx.options.eventsOutOfScope);
  for (const webhook of ctx.model.webhooks.filter((w) => !causes.has(w.event) && !outOfScope.has(w.event))) {
    const data = chosenIds(ctx, webhook);
    identity.set(webhook.event, data);
    expectedData.set(webhook.event, data);
    const outcome = await raiseEvent(ctx, { event: webhook.event, webhookId: signed.id, data });
    if ('cannot' in outcome) notCaused.set(webhook.event, outcome.cannot);
    else if ('refused' in outcome) refused.set(webhook.event, outcome.refused);
    else causes.set(webhook.event, outcome.raised);
  }

  const isOwn = (delivery: Delivery) => {
    const wanted = identity.get(eventOf(delivery));
    const data = (parse(delivery) as { data?: Record<string, unknown> } | undefined)?.data;
    return wanted !== undefined && data !== undefined && Object.entries(wanted).every(([field, value]) => data[field] === value);
  };
  const wanted = [...causes.keys()];
  // Counted by X-Service-Delivery, not by request: a retry of one delivery (a lost acknowledgement)
  // is legal and must not stand in for another event. compliance.changed comes twice:
  // non_compliant, then compliant again. Only the kit's own events count.
  const expectedEvents = wanted.length + (causes.has('compliance.changed') ? 1 : 0);
  const what = `${expectedEvents} distinct deliveries of the kit's own events (${wanted.join(', ')}; compliance.changed twice) at ${signedPath}, and one at ${unsignedPath}`;
  const distinctIds = (deliveries: Delivery[], path: string) =>
    new Set(deliveries.filter((d) => d.path === path && wanted.includes(eventOf(d)) && isOwn(d)).map((d) => String(d.headers['x-service-delivery']))).size;
  const { met, waitedMs } = await receiver.waitUntil(
    (deliveries) => distinctIds(deliveries, signedPath) >= expectedEvents && distinctIds(deliveries, unsignedPath) >= 1,
    ctx.options.eventTimeoutMs,
  );
  const mine = (d: Delivery) => d.path === signedPath || d.path === unsignedPath;
  return {
    webhookId: signed.id,
    unsignedWebhookId: unsigned.id,
    secret,
    signedPath,
    unsignedPath,
    causes,
    notCaused,
    refused,
    expectedData,
    deliveries: receiver.deliveries.filter((d) => mine(d) && isOwn(d)),
    isOwn,
    foreign: () => receiver.deliveries.filter((d) => mine(d) && !isOwn(d)).length,
    waited: { what, met, waitedMs },
  };
}

/**
 * The id fields of a generated valid `data` of the event, with random values: what the kit asks
 * the raised event to carry, so it knows its own delivery among anyone else's.
 */
function chosenIds(ctx: KitContext, webhook: WebhookModel): Record<string, unknown> {
  const [body] = samples(createGenerator(ctx.model.doc).arbitrary({ $ref: webhook.bodyPointer }), 1, randomInt(2 ** 31));
  const data = (body as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  return Object.fromEntries(Object.entries(data).filter(([field, value]) => field.endsWith('_id') && typeof value === 'string'));
}

/** Deliveries on the kit's webhooks of events it did not cause (other clients of a shared target), so far. */
export async function foreignDeliveries(ctx: KitContext): Promise<number> {
  const run = runs.get(ctx);
  return run ? (await run.catch(() => undefined))?.foreign() ?? 0 : 0;
}

export interface DeliveryGroup {
  /** The X-Service-Delivery value. */
  id: string;
  delivery: Delivery;
  /** How many more times the same delivery arrived (retries after a lost acknowledgement). */
  retries: number;
}

/**
 * Deliveries grouped by X-Service-Delivery. The document allows a retry with the same id and the
 * byte-identical body; one id carrying two different bodies is a violation.
 */
export function groupByDeliveryId(deliveries: Delivery[]): { groups: DeliveryGroup[]; violations: Violation[] } {
  const groups = new Map<string, DeliveryGroup>();
  const violations: Violation[] = [];
  for (const delivery of deliveries) {
    const id = String(delivery.headers['x-service-delivery']);
    const group = groups.get(id);
    if (!group) {
      groups.set(id, { id, delivery, retries: 0 });
    } else if (group.delivery.raw.equals(delivery.raw)) {
      group.retries++;
    } else {
      violations.push({
        aspect: 'expectation',
        message: `X-Service-Delivery ${id} came with two different bodies: a retry must resend the same bytes, and another event needs another id`,
        details: [truncate(group.delivery.raw.toString('utf8'), 300), truncate(delivery.raw.toString('utf8'), 300)],
      });
    }
  }
  return { groups: [...groups.values()], violations };
}

/** Every delivery of the webhook's event type conforms: body schema, headers, signature, data. */
export async function deliveryCheck(ctx: KitContext, webhook: WebhookModel, check: string): Promise<'passed' | { skipped: string; gate?: string } | { note: string }> {
  const run = await eventRun(ctx);
  const reason = run.notCaused.get(webhook.event);
  if (reason) {
    const types = [...run.notCaused.keys()].join(',');
    return {
      skipped: reason,
      gate: `events the kit could not raise (${types}) and nobody declared out of scope: give --trigger-command '<command with {event}>' that raises them, or declare them with --events skip:${types}`,
    };
  }
  const refusal = run.refused.get(webhook.event);
  if (refusal) throw new ContractViolation(webhook.label, check, [{ aspect: 'expectation', message: `the simulator would not emit ${webhook.event}`, details: [refusal] }]);
  const grouped = groupByDeliveryId(run.deliveries.filter((d) => d.path === run.signedPath && eventOf(d) === webhook.event));
  if (grouped.violations.length > 0) throw new ContractViolation(webhook.label, check, grouped.violations);
  const deliveries = grouped.groups.map((group) => group.delivery);
  if (deliveries.length === 0) {
    const { what, met, waitedMs } = run.waited;
    throw new ContractViolation(webhook.label, check, [
      {
        aspect: 'expectation',
        message: `no ${webhook.event} delivery reached the receiver after: ${run.causes.get(webhook.event)}`,
        details: [
          `the kit waited ${waitedMs} ms for ${what}${met ? '' : ` and gave up (--event-timeout is ${ctx.options.eventTimeoutMs} ms)`}`,
          `the kit's own deliveries received: ${run.deliveries.map((d) => `${d.path} ${eventOf(d)}`).join(', ') || 'none'}; deliveries of events it did not cause, ignored: ${run.foreign()}`,
        ],
      },
    ]);
  }
  const statuses = deliveries.map((d) => (parse(d) as { data?: { current_status?: unknown } } | undefined)?.data?.current_status);
  if (webhook.event === 'compliance.changed' && !(statuses.includes('non_compliant') && statuses.includes('compliant'))) {
    throw new ContractViolation(webhook.label, check, [
      {
        aspect: 'expectation',
        message: `expected compliance.changed to non_compliant (finding created) and back to compliant (finding resolved); got ${JSON.stringify(statuses)}`,
        details: [],
      },
    ]);
  }
  for (const delivery of deliveries) {
    const violations = deliveryViolations(ctx, webhook, delivery, run.webhookId, run.secret);
    const expected = run.expectedData.get(webhook.event);
    const data = (parse(delivery) as { data?: Record<string, unknown> } | undefined)?.data;
    for (const [field, value] of Object.entries(expected ?? {})) {
      if (webhook.event === 'compliance.changed' && field !== 'policy_id') continue;
      if (data?.[field] !== value) violations.push({ aspect: 'expectation', message: `data.${field} is ${JSON.stringify(data?.[field])}, expected ${JSON.stringify(value)}`, details: [] });
    }
    if (violations.length > 0) throw new ContractViolation(webhook.label, check, violations, asExchange(delivery));
  }
  if (webhook.event === ctx.model.webhooks[0]?.event) {
    const unsigned = run.deliveries.filter((d) => d.path === run.unsignedPath);
    if (unsigned.length === 0) {
      throw new ContractViolation(webhook.label, check, [{ aspect: 'expectation', message: 'the webhook without a secret received nothing', details: [] }]);
    }
    for (const delivery of unsigned) {
      const violations = deliveryViolations(ctx, webhook, delivery, run.unsignedWebhookId, undefined);
      if (violations.length > 0) throw new ContractViolation(webhook.label, `${check} (webhook without secret)`, violations, asExchange(delivery));
    }
  }
  const retries = grouped.groups.reduce((sum, group) => sum + group.retries, 0);
  return retries === 0 ? 'passed' : { note: `${retries} retr${retries === 1 ? 'y' : 'ies'} with the same X-Service-Delivery and body (allowed)` };
}

/** Violations of one delivery; `secret` undefined means the delivery must carry no signature. */
export function deliveryViolations(ctx: KitContext, webhook: WebhookModel, delivery: Delivery, webhookId: string, secret: string | undefined): Violation[] {
  const violations: Violation[] = [];
  if (delivery.method !== 'POST') violations.push({ aspect: 'expectation', message: `delivered with ${delivery.method}, not POST`, details: [] });
  const mediaType = String(delivery.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (mediaType !== 'application/json') violations.push({ aspect: 'content-type', message: `Content-Type is '${mediaType}', not application/json`, details: [] });
  const body = parse(delivery);
  if (body === undefined) {
    violations.push({ aspect: 'response-schema', message: 'the body is not JSON', details: [truncate(delivery.raw.toString('utf8'))] });
  } else {
    const result = ctx.sentValidator.validate(webhook.bodyPointer, body);
    if (!result.valid) violations.push({ aspect: 'response-schema', message: `the body breaks the ${webhook.event} schema (${webhook.bodyPointer})`, details: ajvDetails(result.errors, body) });
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(delivery.headers)) if (typeof value === 'string') headers.set(name, value);
  violations.push(...headerViolations(ctx.validator, webhook.headers, headers));
  if (headers.get('x-service-event') !== webhook.event) violations.push({ aspect: 'headers', message: `X-Service-Event is ${String(headers.get('x-service-event'))}`, details: [] });
  if (headers.get('x-service-webhook-id') !== webhookId) violations.push({ aspect: 'headers', message: `X-Service-Webhook-Id is ${String(headers.get('x-service-webhook-id'))}, not ${webhookId}`, details: [] });
  const signature = headers.get(SIGNATURE_HEADER);
  if (secret === undefined) {
    if (signature !== null) violations.push({ aspect: 'signature', message: `a webhook without a secret got ${SIGNATURE_HEADER}`, details: [signature] });
  } else if (!verifySignature(delivery.raw, signature, secret)) {
    violations.push({
      aspect: 'signature',
      message: signature === null ? `${SIGNATURE_HEADER} is missing on a signed webhook` : `${SIGNATURE_HEADER} does not verify against the raw body and the webhook's secret`,
      details: signature === null ? [] : [`${SIGNATURE_HEADER}: ${signature}`],
    });
  }
  violations.push(...standardHeaderViolations(delivery, secret));
  return violations;
}

function eventOf(delivery: Delivery): string {
  return String(delivery.headers['x-service-event'] ?? (parse(delivery) as { event?: string } | undefined)?.event);
}

function parse(delivery: Delivery): unknown {
  try {
    return JSON.parse(delivery.raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

function asExchange(delivery: Delivery) {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
  return { request: { method: `received ${delivery.method}`, url: delivery.path, headers, body: delivery.raw.toString('utf8') } };
}
