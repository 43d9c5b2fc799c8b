// The rules the document states about what a client writes and reads back: a PUT replaces (with
// the schema's defaults and the webhook secret's three cases), secrets never come back, a read-only
// key reads everything, and pages keep their promises.
import { defineCheck } from '../check.ts';
import { paginationRules } from '../checks/pagination-rules.ts';
import { readScope, replaceSemantics, secrets, webhookSecret } from '../checks/replace-rules.ts';
import { documentedResources, labels, withResources } from './documented.ts';

export const replaceSemanticsCheck = defineCheck({
  name: 'replace-semantics',
  column: 'put',
  rules: [
    'idempotency-and-concurrency.4',
    'updatePolicy.1',
    'updateFinding.1',
    'updateFinding.7',
    'updateWebhook.1',
    'schema.Description.2',
    'schema.FindingUpdate.1',
    'schema.FindingUpdate.3',
    'schema.PolicyWrite.2',
    'schema.PolicyWrite.6',
    'schema.Webhook.7',
    'schema.WebhookUpdate.1',
    'schema.WebhookUpdate.2',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 4, perCase: 0 },
  instances: (model, _options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    return [found.policies, found.findings, found.webhooks].map((resource) => ({
      subjects: [resource.update.label],
      run: async (ctx, cases) => {
        await replaceSemantics(ctx, resource, check, cases);
        if (resource === found.webhooks) await webhookSecret(ctx, check);
      },
    }));
  },
});

export const secretsCheck = defineCheck({
  name: 'secrets',
  column: 'secret',
  rules: ['authentication.4', 'rotating-a-secret.5', 'createWebhook.2', 'schema.Webhook.2', 'schema.Webhook.3', 'schema.WebhookSecret.2'],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 5, perCase: 0 },
  instances: (model, _options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { webhooks } = found;
    return [
      {
        subjects: [webhooks.read.label, webhooks.list.label, webhooks.create.label, webhooks.update.label],
        run: (ctx) => secrets(ctx, check),
      },
    ];
  },
});

export const readScopeCheck = defineCheck({
  name: 'read-scope',
  column: 'read',
  rules: [
    'authentication.2',
    'listPolicies.5',
    'getPolicy.3',
    'listFindings.5',
    'getFinding.3',
    'listWebhooks.5',
    'getWebhook.3',
    'security.bearerAuth.2',
  ],
  needs: { state: true, readKey: true },
  exercisesSuccess: true,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, _options, check) => {
    if (!documentedResources(model)) return [];
    return [{ subjects: model.resources.flatMap((r) => labels(r.list?.label, r.read?.label)), run: (ctx) => readScope(ctx, check) }];
  },
});

export const paginationRulesCheck = defineCheck({
  name: 'pagination-rules',
  column: 'paging',
  rules: [
    'pagination.2',
    'pagination.4',
    'listPolicies.2',
    'listFindings.2',
    'listWebhooks.2',
    'schema.Cursor.3',
    'schema.PolicyWrite.3',
    'param.Limit.1',
    'param.Cursor.2',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 24, perCase: 0 },
  instances: (model, _options, check) =>
    withResources(model, (found) => ({ subjects: [found.policies.list.label], run: (ctx, cases) => paginationRules(ctx, check, cases) })),
});
