// Proofs of the deliveries rules: each fault breaks exactly one rule the document states in words.
import { randomUUID } from 'node:crypto';
import type { RuleId } from '../../contract/kit/rules/catalogue.ts';
import { deliveryHeader, deliveryJson, dropDelivery, sign, withSecret } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';

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
];
