// The check that every delivery of an event the kit caused reached only webhooks that may get it:
// never a disabled one, never one not subscribed to the type, and a test event raised for one
// webhook no other. It runs after the other event checks, so it judges their deliveries too.
import { defineCheck } from '../check.ts';
import { deliveryAttribution } from '../checks/attribution.ts';
import { documentedResources, labels } from './documented.ts';

export const deliveryAttributionCheck = defineCheck({
  name: 'delivery-attribution',
  column: 'routed',
  rules: ['webhooks.2', 'schema.WebhookCreate.2', 'test-support-not-part-of-the-v1-contract.4'],
  needs: { events: true },
  exercisesSuccess: false,
  cost: { fixed: 9, perCase: 0 },
  instances: (model, _options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    return [{ subjects: labels(found.hook('finding.created')), run: (ctx) => deliveryAttribution(ctx, check) }];
  },
});
