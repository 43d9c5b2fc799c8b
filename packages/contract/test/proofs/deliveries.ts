// Proofs of the deliveries rules: each fault breaks exactly one rule the document states in words
// (a row naming several rules is one fault that breaks each of them, one proof per rule).
import type { RuleId } from '../../src/kit/rules/catalogue.ts';
import { deliveryHeader, dropDelivery } from '../fault-dsl.ts';
import type { RuleProof } from '../prove.ts';
import * as faults from './delivery-faults.ts';
import * as slots from './slot-faults.ts';

const hook = (operationId: string, event: string) => `${operationId} (webhook ${event})`;
const CREATED = hook('findingCreated', 'finding.created');
const RESOLVED = hook('findingResolved', 'finding.resolved');
const COMPLIANCE = hook('complianceChanged', 'compliance.changed');
const CONNECTED = hook('deviceConnected', 'device.connected');
const DISCONNECTED = hook('deviceDisconnected', 'device.disconnected');
const SCANNED = hook('scanCompleted', 'scan.completed');
const POLICY = 'getPolicy (GET /v1/policies/{id})';
/** A wait that gives up soon: the fault keeps a delivery from coming. */
const SHORT = { eventTimeoutMs: 1_500 };
const SEMANTICS = { eventTimeoutMs: 2_000 };
const RETRIES = { skipRetryTiming: 'compressed schedule', eventTimeoutMs: 2_000 };
const never = (event: string) => dropDelivery((body) => body.event === event);
const ZERO_WEBHOOK = `whk_${'0'.repeat(26)}`;

type Row = [
  check: RuleProof['check'],
  name: string,
  fault: RuleProof['fault'],
  subject: string,
  rules: RuleId[],
  options?: RuleProof['options'],
];

const ROWS: Row[] = [
  [
    'delivery',
    'X-Service-Signature in uppercase hex',
    faults.uppercaseHex,
    CREATED,
    ['delivery-headers.1', 'param.SignatureHeader.1', 'verifying-signatures.12'],
  ],
  ['delivery', 'the body re-serialised after it was signed', faults.reserialised, CREATED, ['verifying-signatures.1']],
  [
    'delivery',
    'X-Service-Signature without a secret',
    faults.signedWithoutSecret,
    CREATED,
    ['param.SignatureHeader.2', 'verifying-signatures.15'],
  ],
  ['delivery', 'webhook-signature without a secret', faults.standardWithoutSecret, CREATED, ['param.StandardSignatureHeader.3']],
  ['delivery', 'webhook-signature hex-encoded', faults.hexStandardSignature, CREATED, ['verifying-signatures.5']],
  ['delivery', 'no webhook-signature on a signed webhook', faults.noStandardSignature, CREATED, ['delivery-headers.8']],
  [
    'delivery',
    'webhook-signature without the id',
    faults.standardSignedOver((_id, time) => `${time}.`),
    CREATED,
    ['param.StandardIdHeader.2'],
  ],
  [
    'delivery',
    'webhook-signature without the time',
    faults.standardSignedOver((id) => `${id}.`),
    CREATED,
    ['param.StandardTimestampHeader.2'],
  ],
  ['delivery', 'a webhook-id of its own', deliveryHeader('webhook-id', () => crypto.randomUUID()), CREATED, ['delivery-headers.6']],
  [
    'delivery',
    'a webhook-timestamp 10 minutes old',
    deliveryHeader('webhook-timestamp', (v) => String(Number(v) - 600)),
    CREATED,
    ['delivery-headers.7'],
  ],
  [
    'delivery',
    'X-Service-Event naming another type',
    faults.eventHeaderOtherThan('finding.created'),
    CREATED,
    ['delivery-headers.2', 'findingCreated.4'],
  ],
  ['delivery', 'X-Service-Event naming another type', faults.eventHeaderOtherThan('finding.resolved'), RESOLVED, ['findingResolved.5']],
  [
    'delivery',
    'X-Service-Event naming another type',
    faults.eventHeaderOtherThan('compliance.changed'),
    COMPLIANCE,
    ['complianceChanged.4'],
  ],
  ['delivery', 'X-Service-Event naming another type', faults.eventHeaderOtherThan('device.connected'), CONNECTED, ['deviceConnected.4']],
  [
    'delivery',
    'X-Service-Event naming another type',
    faults.eventHeaderOtherThan('device.disconnected'),
    DISCONNECTED,
    ['deviceDisconnected.4'],
  ],
  ['delivery', 'X-Service-Event naming another type', faults.eventHeaderOtherThan('scan.completed'), SCANNED, ['scanCompleted.4']],
  [
    'delivery',
    'X-Service-Webhook-Id of another webhook',
    deliveryHeader('x-service-webhook-id', () => ZERO_WEBHOOK),
    CREATED,
    ['delivery-headers.4', 'param.WebhookIdHeader.1'],
  ],
  [
    'delivery',
    'User-Agent of the HTTP library',
    deliveryHeader('user-agent', () => 'node'),
    CREATED,
    ['delivery-headers.5', 'param.UserAgentHeader.1'],
  ],
  [
    'delivery',
    'finding.created never sent',
    never('finding.created'),
    CREATED,
    ['findingCreated.1', 'schema.FindingCreatedEvent.1'],
    SHORT,
  ],
  ['delivery', 'finding.resolved never sent', never('finding.resolved'), RESOLVED, ['findingResolved.1'], SHORT],
  [
    'delivery',
    'device.connected never sent',
    never('device.connected'),
    CONNECTED,
    ['deviceConnected.1', 'schema.DeviceConnectedEvent.1'],
    SHORT,
  ],
  [
    'delivery',
    'device.disconnected never sent',
    never('device.disconnected'),
    DISCONNECTED,
    ['deviceDisconnected.1', 'schema.DeviceDisconnectedEvent.1'],
    SHORT,
  ],
  ['delivery', 'scan.completed never sent', never('scan.completed'), SCANNED, ['scanCompleted.1', 'schema.ScanCompletedEvent.1'], SHORT],
  ['delivery', 'stamped an hour early', faults.hourEarlier('finding.created'), CREATED, ['schema.FindingCreatedEvent.2']],
  ['delivery', 'stamped an hour early', faults.hourEarlier('finding.resolved'), RESOLVED, ['schema.FindingResolvedEvent.2']],
  ['delivery', 'stamped an hour early', faults.hourEarlier('compliance.changed'), COMPLIANCE, ['schema.ComplianceChangedEvent.2']],
  ['delivery', 'stamped an hour early', faults.hourEarlier('device.connected'), CONNECTED, ['schema.DeviceConnectedEvent.2']],
  ['delivery', 'stamped an hour early', faults.hourEarlier('device.disconnected'), DISCONNECTED, ['schema.DeviceDisconnectedEvent.2']],
  ['delivery', 'stamped an hour early', faults.hourEarlier('scan.completed'), SCANNED, ['schema.ScanCompletedEvent.2']],
  ['delivery', 'finding.created without its policy', faults.policyDropped, CREATED, ['schema.FindingCreatedEvent.4']],
  ['delivery', 'device.connected with a host name for its address', faults.hostForAddress, CONNECTED, ['schema.DeviceConnectedEvent.4']],
  [
    'compliance',
    'compliance.changed naming another finding',
    faults.otherFinding,
    POLICY,
    ['complianceChanged.2', 'schema.ComplianceChangedEvent.4'],
  ],
  ['compliance', 'compliance.changed never sent', never('compliance.changed'), POLICY, ['schema.ComplianceChangedEvent.1'], SHORT],
  [
    'secrets',
    'the new secret in a header of the PUT answer',
    faults.secretInPutHeader,
    'getWebhook (GET /v1/webhooks/{id})',
    ['rotating-a-secret.5'],
  ],
  [
    'delivery-semantics',
    'earlier events sent to a later webhook',
    faults.replayedToLaterWebhooks,
    CREATED,
    ['slow-and-failing-receivers.6'],
  ],
  ['delivery-semantics', 'event bodies padded past 64 KiB', faults.paddedPast64KiB, CREATED, ['slow-and-failing-receivers.8']],
  ['delivery-semantics', 'finding.resolved only the first time', faults.dropRepeatedResolution, CREATED, ['findingResolved.3'], SEMANTICS],
  [
    'delivery-semantics',
    'finding.resolved again when an update leaves it resolved',
    faults.resolvedWhileResolved,
    CREATED,
    ['findingResolved.1'],
    SEMANTICS,
  ],
  ['delivery-semantics', 'finding.resolved never sent', never('finding.resolved'), CREATED, ['schema.FindingResolvedEvent.1'], SHORT],
  ['delivery-semantics', 'one X-Service-Delivery per webhook', faults.oneIdPerWebhook, CREATED, ['param.DeliveryHeader.1'], SEMANTICS],
  ['slot-sharing', 'every delivery sent twice at once', slots.sentTwiceAtOnce, CREATED, ['slow-and-failing-receivers.2'], SEMANTICS],
  ['slot-sharing', 'one delivery at a time over all webhooks', slots.oneAtATime, CREATED, ['slow-and-failing-receivers.1'], SEMANTICS],
  ['endpoint-gone', 'last_delivery without the 410', faults.goneNotRecorded, CREATED, ['schema.LastDelivery.2'], SEMANTICS],
  ['endpoint-gone', 'deliveries after a 410', faults.sentAfterGone, CREATED, ['response.ReceiverGone.1'], SEMANTICS],
  [
    'secret-rotation',
    'X-Service-Signature with the replaced secret',
    () => faults.rotation((d, [previous]) => (previous ? faults.delivered.serviceSigned(d, previous) : d)),
    CREATED,
    ['rotating-a-secret.2'],
  ],
  [
    'secret-rotation',
    'the first secret valid after a second replacement',
    () => faults.rotation((d, [, first]) => (first ? faults.delivered.withEntry(d, first) : d)),
    CREATED,
    ['rotating-a-secret.3'],
  ],
  [
    'secret-rotation',
    'X-Service-Signature after removal',
    () => faults.rotation((d, [last], removed) => (removed && last ? faults.delivered.serviceSigned(d, last) : d)),
    CREATED,
    ['rotating-a-secret.4'],
  ],
  [
    'secret-rotation',
    'a removed secret signing again once a new one is set',
    () =>
      faults.rotation((d, [removed], _, sent) =>
        sent.length > 1 && sent[1] === null && removed ? faults.delivered.withEntry(d, removed) : d,
      ),
    CREATED,
    ['rotating-a-secret.4'],
  ],
  [
    'secret-rotation',
    'webhook-signature entries oldest first',
    () => faults.rotation((d) => faults.delivered.reversed(d)),
    CREATED,
    ['param.StandardSignatureHeader.2'],
  ],
  ['delivery-retry', 'a 307 taken for success', faults.answered((s) => s === 307, 204), CREATED, ['delivery-and-retries.2'], RETRIES],
  [
    'delivery-retry',
    'a 4xx taken for success',
    faults.answered((s) => s >= 400 && s < 500 && s !== 410, 204),
    CREATED,
    ['response.ReceiverRetry.1'],
    RETRIES,
  ],
  ['delivery-retry', 'redirects followed', faults.redirectsFollowed, CREATED, ['response.ReceiverRetry.2'], RETRIES],
  ['delivery-retry', 'a new X-Service-Delivery on every attempt', faults.newIdEveryAttempt, CREATED, ['param.DeliveryHeader.2'], RETRIES],
  ['delivery-retry', 'a retry re-serialising the body', faults.retryReformatted, CREATED, ['slow-and-failing-receivers.9'], RETRIES],
  [
    'delivery-retry',
    'a 2xx but 200 taken for failure',
    faults.answered((s) => s > 200 && s < 300, 500),
    CREATED,
    ['delivery-and-retries.1', 'response.ReceiverAccepted.1'],
    RETRIES,
  ],
  ['delivery-retry', 'last_delivery kept at the first attempt', faults.lastDeliveryFrozen, CREATED, ['schema.LastDelivery.1'], RETRIES],
  ['delivery-retry', 'last_delivery.succeeded inverted', faults.succeededFlipped, CREATED, ['schema.LastDelivery.3'], RETRIES],
  [
    'invalid-body',
    'repeated or surplus event types dropped',
    faults.eventsDeduplicated,
    'createWebhook (POST /v1/webhooks)',
    ['schema.WebhookEvents.1'],
  ],
  [
    'valid-input',
    'subscriptions to device and scan events refused',
    faults.deviceSubscriptionRefused,
    'createWebhook (POST /v1/webhooks)',
    ['webhooks.1'],
  ],
];

export const PROOFS: readonly RuleProof[] = ROWS.flatMap(([check, name, fault, subject, rules, options]) =>
  rules.map((rule) => ({ name, fault, subject, check, rule, ...(options ? { options } : {}) })),
);
