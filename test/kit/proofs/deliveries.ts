// Proofs of the deliveries rules: each fault breaks exactly one rule the document states in words.
import { randomUUID } from 'node:crypto';
import type { RuleId } from '../../contract/kit/rules/catalogue.ts';
import { deliveryHeader, deliveryJson, dropDelivery, field, header, requestBody, sign, withSecret } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';
import {
  delivered,
  dropRepeatedResolution,
  lastDeliveryFrozen,
  oneIdPerWebhook,
  redirectsFollowed,
  replayedToLaterWebhooks,
  rotation,
  sentAfterGone,
} from './delivery-faults.ts';

const webhook = (operationId: string, event: string) => `${operationId} (webhook ${event})`;
const CREATED = webhook('findingCreated', 'finding.created');
const RESOLVED = webhook('findingResolved', 'finding.resolved');
const COMPLIANCE = webhook('complianceChanged', 'compliance.changed');
const CONNECTED = webhook('deviceConnected', 'device.connected');
const DISCONNECTED = webhook('deviceDisconnected', 'device.disconnected');
const SCANNED = webhook('scanCompleted', 'scan.completed');
const EVENTS = [
  ['finding.created', CREATED],
  ['finding.resolved', RESOLVED],
  ['compliance.changed', COMPLIANCE],
  ['device.connected', CONNECTED],
  ['device.disconnected', DISCONNECTED],
  ['scan.completed', SCANNED],
] as const;
/** A deliveries' wait that gives up soon: the fault keeps a delivery from coming. */
const SHORT_WAIT = { eventTimeoutMs: 1_500 };

const proof = (name: string, fault: Fault | (() => Fault), subject: string, rule: RuleId, options?: RuleProof['options']): RuleProof => ({
  name,
  fault,
  subject,
  check: 'delivery',
  rule,
  ...(options ? { options } : {}),
});

const signedOnly = (rewrite: (value: string) => string) =>
  deliveryHeader('x-service-signature', (value) => (value === undefined ? value : rewrite(value)));
const uppercaseHex = signedOnly((value) => `sha256=${value.slice('sha256='.length).toUpperCase()}`);
const reserialised: Fault = {
  delivery: (headers, body) => ({ headers, body: Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)) }),
};
const signatureWithoutSecret = deliveryHeader('x-service-signature', (value, { body }) => value ?? sign.service('whsec_guessed', body));
const standardSignatureWithoutSecret = deliveryHeader(
  'webhook-signature',
  (value, { body }) => value ?? sign.standard('whsec_guessed', body),
);
const hexStandardSignature = () =>
  withSecret(({ headers, body }, secret) => {
    if (secret === undefined) return { headers, body };
    const signed = Buffer.concat([Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`), body]);
    const hex = Buffer.from(sign.standard(secret, signed).slice(3), 'base64').toString('hex');
    return { headers: { ...headers, 'webhook-signature': `v1,${hex}` }, body };
  });
/** webhook-signature over what `signed` makes of the id, the timestamp and the body. */
const standardSignedOver = (signed: (id: string, time: string, body: Buffer) => Buffer) => () =>
  withSecret(({ headers, body }, secret) =>
    secret === undefined
      ? { headers, body }
      : {
          headers: {
            ...headers,
            'webhook-signature': sign.standard(secret, signed(headers['webhook-id']!, headers['webhook-timestamp']!, body)),
          },
          body,
        },
  );
const otherEvent = (event: string) => (event === 'finding.created' ? 'finding.resolved' : 'finding.created');
const hourEarlier = (event: string) => () =>
  deliveryJson(event, (json) => {
    json.timestamp = new Date(Date.parse(String(json.timestamp)) - 3_600_000).toISOString().replace(/\.000Z$/, 'Z');
  });

const WEBHOOK_ITEM = /^\/v1\/webhooks\/whk_[^/?]+$/;
const GET_WEBHOOK = 'getWebhook (GET /v1/webhooks/{id})';
const GET_POLICY = 'getPolicy (GET /v1/policies/{id})';
const RETRIES = { skipRetryTiming: 'compressed schedule' };
const checked =
  (check: RuleProof['check']) =>
  (name: string, fault: RuleProof['fault'], subject: string, rule: RuleId, options?: RuleProof['options']): RuleProof => ({
    ...proof(name, fault, subject, rule, options),
    check,
  });
const semantics = checked('delivery-semantics');
const retry = checked('delivery-retry');
const rotated = checked('secret-rotation');
const gone = checked('endpoint-gone');
const compliance = checked('compliance');
const answered = (from: (status: number) => boolean, to: number): Fault => ({
  deliveryAnswer: ({ status, headers }) => (from(status) ? { status: to, headers } : { status, headers }),
});

export const PROOFS: readonly RuleProof[] = [
  proof('X-Service-Signature in uppercase hex', uppercaseHex, CREATED, 'delivery-headers.1'),
  proof('X-Service-Signature in uppercase hex', uppercaseHex, CREATED, 'param.SignatureHeader.1'),
  proof('X-Service-Signature in uppercase hex', uppercaseHex, CREATED, 'verifying-signatures.12'),
  proof('the body re-serialised after it was signed', reserialised, CREATED, 'verifying-signatures.1'),
  proof('X-Service-Signature on a webhook without a secret', signatureWithoutSecret, CREATED, 'param.SignatureHeader.2'),
  proof('X-Service-Signature on a webhook without a secret', signatureWithoutSecret, CREATED, 'verifying-signatures.15'),
  proof('webhook-signature on a webhook without a secret', standardSignatureWithoutSecret, CREATED, 'param.StandardSignatureHeader.3'),
  proof('webhook-signature hex-encoded instead of base64', hexStandardSignature, CREATED, 'verifying-signatures.5'),
  proof(
    'no webhook-signature on a signed webhook',
    deliveryHeader('webhook-signature', (value, { headers }) => (headers['x-service-signature'] ? undefined : value)),
    CREATED,
    'delivery-headers.8',
  ),
  proof(
    'webhook-signature not covering webhook-id',
    standardSignedOver((_id, time, body) => Buffer.concat([Buffer.from(`${time}.`), body])),
    CREATED,
    'param.StandardIdHeader.2',
  ),
  proof(
    'webhook-signature not covering webhook-timestamp',
    standardSignedOver((id, _time, body) => Buffer.concat([Buffer.from(`${id}.`), body])),
    CREATED,
    'param.StandardTimestampHeader.2',
  ),
  proof(
    'a webhook-id of its own',
    deliveryHeader('webhook-id', () => randomUUID()),
    CREATED,
    'delivery-headers.6',
  ),
  proof(
    'a webhook-timestamp 10 minutes old',
    deliveryHeader('webhook-timestamp', (value) => String(Number(value) - 600)),
    CREATED,
    'delivery-headers.7',
  ),
  proof(
    'X-Service-Event naming another type',
    deliveryHeader('x-service-event', () => 'finding.resolved', 'finding.created'),
    CREATED,
    'delivery-headers.2',
  ),
  ...(
    [
      ['finding.created', CREATED, 'findingCreated.4'],
      ['finding.resolved', RESOLVED, 'findingResolved.5'],
      ['compliance.changed', COMPLIANCE, 'complianceChanged.4'],
      ['device.connected', CONNECTED, 'deviceConnected.4'],
      ['device.disconnected', DISCONNECTED, 'deviceDisconnected.4'],
      ['scan.completed', SCANNED, 'scanCompleted.4'],
    ] as const
  ).map(([event, subject, rule]) =>
    proof(
      `X-Service-Event of ${event} naming another type`,
      deliveryHeader('x-service-event', () => otherEvent(event), event),
      subject,
      rule,
    ),
  ),
  proof(
    'X-Service-Webhook-Id of another webhook',
    deliveryHeader('x-service-webhook-id', () => `whk_${'0'.repeat(26)}`),
    CREATED,
    'delivery-headers.4',
  ),
  proof(
    'X-Service-Webhook-Id of another webhook',
    deliveryHeader('x-service-webhook-id', () => `whk_${'0'.repeat(26)}`),
    CREATED,
    'param.WebhookIdHeader.1',
  ),
  proof(
    'User-Agent of the HTTP library',
    deliveryHeader('user-agent', () => 'node'),
    CREATED,
    'delivery-headers.5',
  ),
  proof(
    'User-Agent of the HTTP library',
    deliveryHeader('user-agent', () => 'node'),
    CREATED,
    'param.UserAgentHeader.1',
  ),
  ...(
    [
      ['finding.created', CREATED, ['findingCreated.1', 'schema.FindingCreatedEvent.1']],
      ['finding.resolved', RESOLVED, ['findingResolved.1']],
      ['device.connected', CONNECTED, ['deviceConnected.1', 'schema.DeviceConnectedEvent.1']],
      ['device.disconnected', DISCONNECTED, ['deviceDisconnected.1', 'schema.DeviceDisconnectedEvent.1']],
      ['scan.completed', SCANNED, ['scanCompleted.1', 'schema.ScanCompletedEvent.1']],
    ] as const
  ).flatMap(([event, subject, rules]) =>
    rules.map((rule) =>
      proof(
        `${event} never sent`,
        dropDelivery((body) => body.event === event),
        subject,
        rule,
        SHORT_WAIT,
      ),
    ),
  ),
  ...EVENTS.map(([event, subject]) => {
    const schema = `${event.replace(/(^|\.)(\w)/g, (_m, _dot, c: string) => c.toUpperCase())}Event`;
    return proof(`${event} stamped an hour before it happened`, hourEarlier(event), subject, `schema.${schema}.2` as RuleId);
  }),
  proof(
    'finding.created without its policy',
    () => deliveryJson('finding.created', (json) => void ((json.data as Record<string, unknown>).policy_id = null)),
    CREATED,
    'schema.FindingCreatedEvent.4',
  ),
  proof(
    'device.connected with a host name for its address',
    () => deliveryJson('device.connected', (json) => void ((json.data as Record<string, unknown>).ip_address = 'agent.local')),
    CONNECTED,
    'schema.DeviceConnectedEvent.4',
  ),
  compliance(
    'compliance.changed naming another finding',
    () => deliveryJson('compliance.changed', (json) => void ((json.data as Record<string, unknown>).finding_id = `fnd_${'0'.repeat(26)}`)),
    GET_POLICY,
    'complianceChanged.2',
  ),
  compliance(
    'compliance.changed naming another finding',
    () => deliveryJson('compliance.changed', (json) => void ((json.data as Record<string, unknown>).finding_id = `fnd_${'0'.repeat(26)}`)),
    GET_POLICY,
    'schema.ComplianceChangedEvent.4',
  ),
  compliance(
    'compliance.changed never sent',
    dropDelivery((body) => body.event === 'compliance.changed'),
    GET_POLICY,
    'schema.ComplianceChangedEvent.1',
    SHORT_WAIT,
  ),
  checked('secrets')(
    'the replaced secret echoed in a header of the PUT answer',
    header({ method: 'PUT', path: WEBHOOK_ITEM }, 'x-webhook-secret', (value, request) =>
      String((JSON.parse(request.body.toString('utf8')) as { secret?: unknown }).secret ?? value),
    ),
    GET_WEBHOOK,
    'rotating-a-secret.5',
  ),
  semantics(
    'earlier finding.created replayed to a webhook created later',
    replayedToLaterWebhooks,
    CREATED,
    'slow-and-failing-receivers.6',
  ),
  semantics(
    'event bodies padded past 64 KiB',
    {
      delivery: (headers, body) => ({ headers, body: Buffer.concat([body.subarray(0, -1), Buffer.alloc(65_536, ' '), body.subarray(-1)]) }),
    },
    CREATED,
    'slow-and-failing-receivers.8',
  ),
  semantics('finding.resolved sent only the first time', dropRepeatedResolution, CREATED, 'findingResolved.3', { eventTimeoutMs: 2_000 }),
  semantics(
    'finding.resolved never sent',
    dropDelivery((body) => body.event === 'finding.resolved'),
    CREATED,
    'schema.FindingResolvedEvent.1',
    SHORT_WAIT,
  ),
  semantics('one X-Service-Delivery for every finding.created to a webhook', oneIdPerWebhook, CREATED, 'param.DeliveryHeader.1', {
    eventTimeoutMs: 2_000,
  }),
  gone(
    'last_delivery without the 410',
    field({ method: 'GET', path: WEBHOOK_ITEM }, (json) => {
      const last = json.last_delivery as Record<string, unknown> | null;
      if (last?.status_code === 410) last.status_code = null;
    }),
    CREATED,
    'schema.LastDelivery.2',
    { eventTimeoutMs: 2_000 },
  ),
  gone('deliveries after a 410', sentAfterGone, CREATED, 'response.ReceiverGone.1', { eventTimeoutMs: 2_000 }),
  rotated(
    'X-Service-Signature with the replaced secret',
    () => rotation((d, [previous]) => (previous ? delivered.serviceSigned(d, previous) : d)),
    CREATED,
    'rotating-a-secret.2',
  ),
  rotated(
    'the first secret still valid after the second replacement',
    () => rotation((d, [, first]) => (first ? delivered.withEntry(d, first) : d)),
    CREATED,
    'rotating-a-secret.3',
  ),
  rotated(
    'X-Service-Signature with the removed secret',
    () => rotation((d, [previous], removed) => (removed && previous ? delivered.serviceSigned(d, previous) : d)),
    CREATED,
    'rotating-a-secret.4',
  ),
  rotated(
    'webhook-signature entries oldest first',
    () =>
      rotation((d) => ({
        ...d,
        headers: { ...d.headers, 'webhook-signature': String(d.headers['webhook-signature']).split(' ').reverse().join(' ') },
      })),
    CREATED,
    'param.StandardSignatureHeader.2',
  ),
  retry(
    'a 307 taken for success',
    answered((status) => status === 307, 204),
    CREATED,
    'delivery-and-retries.2',
    RETRIES,
  ),
  retry(
    'a 4xx taken for success',
    answered((status) => status >= 400 && status < 500 && status !== 410, 204),
    CREATED,
    'response.ReceiverRetry.1',
    RETRIES,
  ),
  retry('redirects followed', redirectsFollowed, CREATED, 'response.ReceiverRetry.2', RETRIES),
  retry(
    'a new X-Service-Delivery on every attempt',
    () => {
      return {
        delivery: (headers, body) => {
          const id = randomUUID();
          return { headers: { ...headers, 'x-service-delivery': id, 'webhook-id': id }, body };
        },
      };
    },
    CREATED,
    'param.DeliveryHeader.2',
    RETRIES,
  ),
  retry(
    'a retry re-serialising the body',
    () => {
      const seen = new Set<string>();
      return {
        delivery: (headers, body) => {
          const id = String(headers['x-service-delivery']);
          const again = seen.has(id);
          seen.add(id);
          return { headers, body: again ? Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)) : body };
        },
      };
    },
    CREATED,
    'slow-and-failing-receivers.9',
    RETRIES,
  ),
  retry(
    'a 2xx other than 200 taken for failure',
    answered((status) => status > 200 && status < 300, 500),
    CREATED,
    'delivery-and-retries.1',
    RETRIES,
  ),
  retry(
    'a 2xx other than 200 taken for failure',
    answered((status) => status > 200 && status < 300, 500),
    CREATED,
    'response.ReceiverAccepted.1',
    RETRIES,
  ),
  retry('last_delivery frozen at the first attempt', lastDeliveryFrozen, CREATED, 'schema.LastDelivery.1', RETRIES),
  retry(
    'last_delivery.succeeded the wrong way round',
    field({ method: 'GET', path: WEBHOOK_ITEM }, (json) => {
      const last = json.last_delivery as Record<string, unknown> | null;
      if (last) last.succeeded = !last.succeeded;
    }),
    CREATED,
    'schema.LastDelivery.3',
    RETRIES,
  ),
  checked('invalid-body')(
    'repeated or surplus event types quietly dropped',
    requestBody({ method: 'POST', path: /^\/v1\/webhooks$/ }, (json) => {
      if (Array.isArray(json.events)) json.events = [...new Set(json.events)].slice(0, 6);
    }),
    'createWebhook (POST /v1/webhooks)',
    'schema.WebhookEvents.1',
  ),
];
