// The delivery check: every delivery of an event the kit caused (event-run.ts says which those
// are) is checked for its body against its webhook schema, its headers against the webhook's header
// parameters, and its signatures. Other deliveries on the kit's webhooks (another client's
// findings on a shared target) are legal; they are counted and left alone.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { SIGNATURE_HEADER } from '../oracle.ts';
import type { Delivery } from '../receiver.ts';
import { statedOfWebhook, type WebhookRules } from '../rules/stated.ts';
import type { WebhookModel } from '../spec.ts';
import { ajvDetails, type Discrepancy, headerViolations, naming, truncate } from '../verify.ts';
import { groupByDeliveryId } from './shared/delivery-groups.ts';
import { eventOf, eventRun, parse } from './shared/event-run.ts';
import { signatureViolations, standardHeaderViolations, TOLERANCE_SECONDS } from './shared/signatures.ts';

/** What the delivery check judges; its failures name the ones a delivery breaks. */
const RULES = [
  'webhooks.2',
  'delivery-headers.1',
  'delivery-headers.2',
  'delivery-headers.4',
  'delivery-headers.5',
  'delivery-headers.6',
  'delivery-headers.7',
  'delivery-headers.8',
  'verifying-signatures.1',
  'verifying-signatures.5',
  'verifying-signatures.12',
  'verifying-signatures.15',
  'versioning.14',
  'createFinding.1',
  'updateFinding.3',
  'findingCreated.1',
  'findingResolved.1',
  'deviceConnected.1',
  'deviceDisconnected.1',
  'scanCompleted.1',
  'schema.ComplianceChangedEvent.2',
  'schema.DeviceConnectedEvent.1',
  'schema.DeviceConnectedEvent.2',
  'schema.DeviceConnectedEvent.4',
  'schema.DeviceDisconnectedEvent.1',
  'schema.DeviceDisconnectedEvent.2',
  'schema.FindingCreatedEvent.1',
  'schema.FindingCreatedEvent.2',
  'schema.FindingCreatedEvent.4',
  'schema.FindingResolvedEvent.2',
  'schema.ScanCompletedEvent.1',
  'schema.ScanCompletedEvent.2',
  'schema.Webhook.2',
  'schema.WebhookSecret.1',
  'param.SignatureHeader.1',
  'param.SignatureHeader.2',
  'param.WebhookIdHeader.1',
  'param.UserAgentHeader.1',
  'findingCreated.4',
  'findingResolved.5',
  'complianceChanged.4',
  'deviceConnected.4',
  'deviceDisconnected.4',
  'scanCompleted.4',
  'param.StandardSignatureHeader.1',
  'param.StandardSignatureHeader.3',
  'param.StandardIdHeader.1',
  'param.StandardIdHeader.2',
  'param.StandardTimestampHeader.1',
  'param.StandardTimestampHeader.2',
] as const;
type Rule = (typeof RULES)[number];

export const deliveryCheckDefinition = defineCheck({
  name: 'delivery',
  column: 'event',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 0 },
  instances: (model) =>
    model.webhooks.map((webhook) => ({ subjects: [webhook.label], run: (ctx, check) => deliveryCheck(ctx, webhook, check) })),
});

/** Every delivery of the webhook's event type conforms: body schema, headers, signature, data. */
async function deliveryCheck(
  ctx: KitContext,
  webhook: WebhookModel,
  check: Check<Rule>,
): Promise<'passed' | { skipped: string; gate?: string } | { note: string }> {
  const run = await eventRun(ctx, check);
  const rules = statedOfWebhook(ctx.model.doc, webhook, RULES);
  const reason = run.notCaused.get(webhook.event);
  if (reason) {
    const types = [...run.notCaused.keys()].join(',');
    return {
      skipped: reason,
      gate: `events the kit could not raise (${types}) and nobody declared out of scope: give --trigger-command '<command with {event}>' that raises them, or declare them with --events skip:${types}`,
    };
  }
  const refusal = run.refused.get(webhook.event);
  if (refusal)
    check.failAll({
      at: webhook,
      found: [{ aspect: 'expectation', message: `the simulator would not emit ${webhook.event}`, details: [refusal] }],
    });
  const grouped = groupByDeliveryId(run.deliveries.filter((d) => d.path === run.signedPath && eventOf(d) === webhook.event));
  if (grouped.violations.length > 0) check.failAll({ at: webhook, found: grouped.violations });
  const deliveries = grouped.groups.map((group) => group.delivery);
  if (deliveries.length === 0) {
    const { what, met, waitedMs } = run.waited;
    check.failAll({
      at: webhook,
      found: naming(
        {
          aspect: 'expectation',
          message: `no ${webhook.event} delivery reached the receiver after: ${run.causes.get(webhook.event)}`,
          details: [
            `the kit waited ${waitedMs} ms for ${what}${met ? '' : ` and gave up (--event-timeout is ${ctx.options.eventTimeoutMs} ms)`}`,
            `the kit's own deliveries received: ${run.deliveries.map((d) => `${d.path} ${eventOf(d)}`).join(', ') || 'none'}; deliveries of events it did not cause, ignored: ${run.foreign()}`,
          ],
        },
        rules.sent,
      ),
    });
  }
  const statuses = deliveries.map((d) => (parse(d) as { data?: { current_status?: unknown } } | undefined)?.data?.current_status);
  if (webhook.event === 'compliance.changed' && !(statuses.includes('non_compliant') && statuses.includes('compliant'))) {
    check.failAll({
      at: webhook,
      found: [
        {
          aspect: 'expectation',
          message: `expected compliance.changed to non_compliant (finding created) and back to compliant (finding resolved); got ${JSON.stringify(statuses)}`,
          details: [],
        },
      ],
    });
  }
  for (const delivery of deliveries) {
    const violations = deliveryViolations(ctx, check, webhook, rules, delivery, run.webhookId, run.secret);
    violations.push(...timestampViolations(delivery, rules, run.startedAt));
    const expected = run.expectedData.get(webhook.event);
    const data = (parse(delivery) as { data?: Record<string, unknown> } | undefined)?.data;
    for (const [field, value] of Object.entries(expected ?? {})) {
      if (webhook.event === 'compliance.changed' && field !== 'policy_id') continue;
      if (data?.[field] !== value)
        violations.push(
          ...naming(
            {
              aspect: 'expectation',
              message: `data.${field} is ${JSON.stringify(data?.[field])}, expected ${JSON.stringify(value)}`,
              details: [],
            },
            rules.property(`/data/${field}`),
          ),
        );
    }
    if (violations.length > 0) check.failAll({ at: webhook, found: violations, exchange: asExchange(delivery) });
  }
  if (webhook.event === ctx.model.webhooks[0]?.event) {
    const unsigned = run.deliveries.filter((d) => d.path === run.unsignedPath);
    if (unsigned.length === 0) {
      check.failAll({
        at: webhook,
        found: [{ aspect: 'expectation', message: 'the webhook without a secret received nothing', details: [] }],
      });
    }
    for (const delivery of unsigned) {
      const violations = deliveryViolations(ctx, check, webhook, rules, delivery, run.unsignedWebhookId, undefined);
      const unsignedNote = (v: Discrepancy) => ({ ...v, message: `the webhook without a secret: ${v.message}` });
      if (violations.length > 0) check.failAll({ at: webhook, found: violations.map(unsignedNote), exchange: asExchange(delivery) });
    }
  }
  const retries = grouped.groups.reduce((sum, group) => sum + group.retries, 0);
  const notes = [
    ...(run.recognisedByArrival.includes(webhook.event)
      ? [
          `recognised as the first ${webhook.event} on the kit's webhook after --trigger-command started (it did not carry the ids in {data})`,
        ]
      : []),
    ...(retries === 0 ? [] : [`${retries} retr${retries === 1 ? 'y' : 'ies'} with the same X-Service-Delivery and body (allowed)`]),
  ];
  return notes.length === 0 ? 'passed' : { note: notes.join('; ') };
}

/** Violations of one delivery; `secret` undefined means the delivery must carry no signature. */
function deliveryViolations(
  ctx: KitContext,
  check: Check<Rule>,
  webhook: WebhookModel,
  rules: WebhookRules,
  delivery: Delivery,
  webhookId: string,
  secret: string | undefined,
): Discrepancy[] {
  const violations: Discrepancy[] = [];
  if (delivery.method !== 'POST')
    violations.push({ aspect: 'expectation', message: `delivered with ${delivery.method}, not POST`, details: [] });
  const mediaType = String(delivery.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (mediaType !== 'application/json')
    violations.push({ aspect: 'content-type', message: `Content-Type is '${mediaType}', not application/json`, details: [] });
  const body = parse(delivery);
  if (body === undefined) {
    violations.push({ aspect: 'response-schema', message: 'the body is not JSON', details: [truncate(delivery.raw.toString('utf8'))] });
  } else {
    const result = ctx.sentValidator.validate(webhook.bodyPointer, body);
    if (!result.valid)
      violations.push(
        ...naming(
          {
            aspect: 'response-schema',
            message: `the body breaks the ${webhook.event} schema (${webhook.bodyPointer})`,
            details: ajvDetails(result.errors, body),
          },
          rules.schema(result.errors),
        ),
      );
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(delivery.headers)) if (typeof value === 'string') headers.set(name, value);
  const signatureNames = new Set(['x-service-signature', 'webhook-signature']);
  for (const found of headerViolations(ctx.validator, webhook.headers, headers)) {
    const name = webhook.headers.find((h) => h.pointer === found.pointer)?.name ?? '';
    // A malformed signature is judged below, with the rule the signature breaks.
    if (!signatureNames.has(name.toLowerCase())) violations.push(...naming(found, rules.header(name)));
  }
  if (headers.get('x-service-event') !== webhook.event)
    violations.push(
      ...naming(
        { aspect: 'headers', message: `X-Service-Event is ${String(headers.get('x-service-event'))}`, details: [] },
        rules.header('X-Service-Event'),
      ),
    );
  if (headers.get('x-service-webhook-id') !== webhookId)
    violations.push(
      ...naming(
        {
          aspect: 'headers',
          message: `X-Service-Webhook-Id is ${String(headers.get('x-service-webhook-id'))}, not ${webhookId}`,
          details: [],
        },
        rules.header('X-Service-Webhook-Id'),
      ),
    );
  violations.push(...signatureViolations(check, delivery, headers.get(SIGNATURE_HEADER), secret));
  violations.push(...standardHeaderViolations(check, delivery, secret));
  return violations;
}

/** The body's `timestamp`: when the event happened, so between the kit causing it and its arrival (either clock's tolerance aside). */
function timestampViolations(delivery: Delivery, rules: WebhookRules, startedAt: number): Discrepancy[] {
  const stamp = (parse(delivery) as { timestamp?: unknown } | undefined)?.timestamp;
  const at = typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
  const slack = TOLERANCE_SECONDS * 1000;
  if (Number.isNaN(at) || (at >= startedAt - slack && at <= delivery.receivedAt + slack)) return [];
  const window = `${new Date(startedAt).toISOString()} (when the kit caused it) and ${new Date(delivery.receivedAt).toISOString()} (when it arrived), ±${TOLERANCE_SECONDS} s`;
  return naming(
    { aspect: 'expectation', message: `timestamp ${String(stamp)} is not when the event happened: not between ${window}`, details: [] },
    rules.property('/timestamp'),
  );
}

function asExchange(delivery: Delivery) {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
  return { request: { method: `received ${delivery.method}`, url: delivery.path, headers, body: delivery.raw.toString('utf8') } };
}
