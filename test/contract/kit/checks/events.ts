// Event checks: subscribe the loopback receiver (signed, all event types, plus an unsigned
// webhook), cause events through the API (finding.created, compliance.changed, finding.resolved)
// and through the development simulator when the target has one, then check every delivery's
// body against its webhook schema, its headers against the webhook's header parameters, and its
// signature with lib/signing.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { verifySignature, SIGNATURE_HEADER } from '../../../../lib/signing.ts';
import type { KitContext } from '../context.ts';
import type { Delivery } from '../receiver.ts';
import type { ResourceModel, WebhookModel } from '../spec.ts';
import { ajvDetails, ContractViolation, headerViolations, truncate, type Violation } from '../verify.ts';

/** The simulator route of the reference server (brief §5); not part of the /v1 contract. */
export const SIMULATOR_PATH = '/_simulator/events';

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
  deliveries: Delivery[];
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

  const updates = await ctx.validBodies(findings.update!, ctx.options.cases * 2);
  const resolve = updates.find((body) => (body as { status?: string }).status === 'resolved');
  if (!resolve) throw new Error('no valid finding update with status resolved was generated');
  const resolved = await ctx.send(findings.update!, { id: findingId, body: { ...(resolve as object), policy_id: policyId } });
  ctx.expect(findings.update!, 'delivery', resolved, { statuses: [200] }, 'resolving the finding to cause finding.resolved');
  causes.set('finding.resolved', `PUT ${findings.itemPath} status=resolved (${findingId})`);
  expectedData.set('finding.resolved', { finding_id: findingId, policy_id: policyId });

  const notCaused = new Map<string, string>();
  const refused = new Map<string, string>();
  for (const type of types.filter((t) => !causes.has(t))) {
    const exchange = await ctx.http.send({ method: 'POST', path: SIMULATOR_PATH, body: { event: type } });
    if (exchange.status === 404 || exchange.status === 405) {
      notCaused.set(type, `the target has no simulator (POST ${SIMULATOR_PATH} answered ${exchange.status}); only the simulator can cause ${type}`);
    } else if (exchange.status >= 300) {
      refused.set(type, `POST ${SIMULATOR_PATH} {"event":"${type}"} answered ${exchange.status}: ${truncate(exchange.text, 300)}`);
    } else {
      causes.set(type, `POST ${SIMULATOR_PATH} {"event":"${type}"}`);
    }
  }

  const wanted = [...causes.keys()];
  // Counted by X-Service-Delivery, not by request: a retry of one delivery (a lost acknowledgement)
  // is legal and must not stand in for another event. compliance.changed comes twice:
  // non_compliant, then compliant again.
  const expectedEvents = wanted.length + 1;
  const what = `${expectedEvents} distinct deliveries (${wanted.join(', ')}; compliance.changed twice) at ${signedPath}, and one at ${unsignedPath}`;
  const distinctIds = (deliveries: Delivery[], path: string) =>
    new Set(deliveries.filter((d) => d.path === path && wanted.includes(eventOf(d))).map((d) => String(d.headers['x-service-delivery']))).size;
  const { met, waitedMs } = await receiver.waitUntil(
    (deliveries) => distinctIds(deliveries, signedPath) >= expectedEvents && distinctIds(deliveries, unsignedPath) >= 1,
    ctx.options.eventTimeoutMs,
  );
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
    deliveries: receiver.deliveries.filter((d) => d.path === signedPath || d.path === unsignedPath),
    waited: { what, met, waitedMs },
  };
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
export async function deliveryCheck(ctx: KitContext, webhook: WebhookModel, check: string): Promise<'passed' | { skipped: string } | { note: string }> {
  const run = await eventRun(ctx);
  const reason = run.notCaused.get(webhook.event);
  if (reason) return { skipped: reason };
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
          `deliveries received: ${run.deliveries.map((d) => `${d.path} ${eventOf(d)}`).join(', ') || 'none'}`,
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
