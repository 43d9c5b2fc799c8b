// The checks of what the target sends: every webhook's deliveries (schema, headers, signatures),
// and the rules the document states about fan-out, retries, a receiver that is gone, and secret
// rotation.
import { defineCheck } from '../check.ts';
import { deliveryRetry, startRetryProbe } from '../checks/delivery-retry.ts';
import { deliverySemantics, endpointGone } from '../checks/delivery-rules.ts';
import { deliveryCheck } from '../checks/events.ts';
import { secretRotation } from '../checks/signature-rules.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { documentedResources, labels, withResources } from './documented.ts';

/** What the delivery check judges; its failures name the ones a delivery breaks. */
const DELIVERY_RULES: readonly RuleId[] = [
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
];

export const deliveryCheckDefinition = defineCheck({
  name: 'delivery',
  column: 'event',
  rules: DELIVERY_RULES,
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 0 },
  instances: (model, _options, check) =>
    model.webhooks.map((webhook) => ({ subjects: [webhook.label], run: (ctx) => deliveryCheck(ctx, webhook, check, DELIVERY_RULES) })),
});

export const deliverySemanticsCheck = defineCheck({
  name: 'delivery-semantics',
  column: 'fanout',
  rules: [
    'webhooks.2',
    'delivery-headers.3',
    'slow-and-failing-receivers.6',
    'slow-and-failing-receivers.8',
    'delivery-headers.6',
    'delivery-headers.7',
    'findingResolved.2',
    'findingResolved.3',
    'schema.FindingResolvedEvent.1',
    'schema.WebhookCreate.2',
    'param.DeliveryHeader.1',
    'param.StandardIdHeader.1',
    'param.StandardTimestampHeader.1',
  ],
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 24, perCase: 0 },
  instances: (model, _options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    return [
      { subjects: labels(found.hook('finding.created'), found.hook('finding.resolved')), run: (ctx) => deliverySemantics(ctx, check) },
    ];
  },
});

export const deliveryRetryCheck = defineCheck({
  name: 'delivery-retry',
  column: 'retry',
  rules: [
    'delivery-headers.3',
    'delivery-and-retries.1',
    'delivery-and-retries.2',
    'delivery-and-retries.4',
    'slow-and-failing-receivers.9',
    'delivery-headers.6',
    'delivery-headers.7',
    'schema.LastDelivery.1',
    'schema.LastDelivery.3',
    'schema.WebhookUrl.3',
    'param.DeliveryHeader.2',
    'response.ReceiverRetry.1',
    'response.ReceiverRetry.2',
    'response.ReceiverAccepted.1',
    'param.StandardIdHeader.1',
    'param.StandardTimestampHeader.1',
  ],
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    const timing = options.skipRetryTiming ? { skip: options.skipRetryTiming } : {};
    return [
      {
        subjects: labels(found.hook('finding.created')),
        run: (ctx) => deliveryRetry(ctx, check, timing),
        prepare: (ctx) => void startRetryProbe(ctx, check, timing),
      },
    ];
  },
});

export const endpointGoneCheck = defineCheck({
  name: 'endpoint-gone',
  column: '410',
  rules: [
    'delivery-and-retries.3',
    'delivery-headers.6',
    'delivery-headers.7',
    'updateWebhook.2',
    'schema.LastDelivery.2',
    'schema.Webhook.4',
    'schema.Webhook.5',
    'schema.WebhookUpdate.3',
    'response.ReceiverGone.1',
    'param.StandardIdHeader.1',
    'param.StandardTimestampHeader.1',
  ],
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 7, perCase: 0 },
  instances: (model, _options, check) =>
    withResources(model, (found) => ({
      subjects: labels(found.hook('finding.created'), found.webhooks.update.label),
      run: (ctx) => endpointGone(ctx, check),
    })),
});

export const secretRotationCheck = defineCheck({
  name: 'secret-rotation',
  column: 'rotate',
  rules: [
    'delivery-headers.6',
    'delivery-headers.7',
    'delivery-headers.8',
    'rotating-a-secret.1',
    'rotating-a-secret.2',
    'rotating-a-secret.3',
    'rotating-a-secret.4',
    'schema.WebhookUpdate.2',
    'param.StandardSignatureHeader.2',
    'param.StandardIdHeader.1',
    'param.StandardTimestampHeader.1',
  ],
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 11, perCase: 0 },
  instances: (model, _options, check) =>
    withResources(model, (found) => ({
      subjects: labels(found.hook('finding.created'), found.webhooks.update.label),
      run: (ctx) => secretRotation(ctx, check),
    })),
});
