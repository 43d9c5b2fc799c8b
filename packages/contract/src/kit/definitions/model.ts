// The model-based sequences: one check over the three resources and the events their changes
// cause, judged against the executable model of the document (kit/model/).
import { defineCheck } from '../check.ts';
import { modelSequences } from '../checks/model-sequences.ts';
import { documentedResources } from './documented.ts';

export const modelSequencesCheck = defineCheck({
  name: 'model-sequences',
  column: 'model',
  rules: [
    'errors.2',
    'errors.5',
    'errors.14',
    'idempotency-and-concurrency.1',
    'idempotency-and-concurrency.2',
    'idempotency-and-concurrency.3',
    'idempotency-and-concurrency.4',
    'limits.3',
    'rate-limits.2',
    'webhooks.2',
    'delivery-headers.1',
    'createPolicy.2',
    'createPolicy.3',
    'createFinding.3',
    'createWebhook.2',
    'createWebhook.4',
    'updatePolicy.1',
    'updatePolicy.2',
    'updateFinding.1',
    'updateFinding.2',
    'updateFinding.7',
    'updateWebhook.1',
    'deletePolicy.1',
    'deletePolicy.2',
    'schema.Finding.2',
    'schema.Finding.3',
    'schema.FindingCreate.2',
    'schema.FindingCreate.3',
    'schema.WebhookUpdate.2',
    'listPolicies.2',
    'listFindings.2',
    'listWebhooks.2',
    'listPolicies.3',
    'listFindings.3',
    'listWebhooks.3',
    'pagination.3',
    'test-support-not-part-of-the-v1-contract.3',
    'test-support-not-part-of-the-v1-contract.4',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 3, perCase: 5 },
  instances: (model, _options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { policies, findings, webhooks } = found;
    const subjects = [policies.create, policies.read, policies.update, policies.delete, policies.list, findings.update, webhooks.update];
    return [{ subjects: subjects.map((op) => op.label), run: (ctx, cases) => modelSequences(ctx, subjects[0]!.label, check, cases) }];
  },
});
