// The rules about answers as a whole: every problem type of the Errors table provoked, browsers
// served (CORS), every answer of the run audited afterwards, and the 429 that ends the run.
import { defineCheck } from '../check.ts';
import { cors } from '../checks/cors.ts';
import { problemCatalogue, startRequestTimeoutProbe } from '../checks/problem-rules.ts';
import { rateLimitProbe } from '../checks/rate-limit.ts';
import { responseAudit } from '../checks/response-audit.ts';
import { documentedResources, withResources } from './documented.ts';

export const problemCatalogueCheck = defineCheck({
  name: 'problem-catalogue',
  column: 'probs',
  rules: [
    'authentication.3',
    'errors.2',
    'errors.4',
    'errors.5',
    'errors.6',
    'errors.7',
    'errors.8',
    'errors.9',
    'errors.10',
    'errors.11',
    'errors.12',
    'errors.13',
    'errors.14',
    'errors.15',
    'errors.16',
    'errors.17',
    'errors.18',
    'errors.20',
    'createWebhook.3',
    'schema.FindingStatus.7',
    'schema.Problem.4',
    'schema.Problem.8',
    'schema.ProblemError.2',
    'schema.WebhookUrl.2',
  ],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 19, perCase: 0 },
  instances: (model, _options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { policies, findings, webhooks } = found;
    return [
      {
        subjects: [policies.list, policies.create, policies.read, policies.update, policies.delete, findings.update, webhooks.create].map(
          (op) => op.label,
        ),
        run: (ctx) => problemCatalogue(ctx, check),
        prepare: startRequestTimeoutProbe,
      },
    ];
  },
});

export const corsCheck = defineCheck({
  name: 'cors',
  column: 'cors',
  rules: ['browser-clients-cors.1', 'browser-clients-cors.2', 'browser-clients-cors.3', 'browser-clients-cors.4'],
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, options, check) =>
    withResources(model, (found) => ({ subjects: [found.policies.list.label], run: (ctx) => cors(ctx, check, options.corsOrigin) })),
});

/** Last but the 429 probe: it audits every answer the run saw. */
export const responseAuditCheck = defineCheck({
  name: 'response-audit',
  column: 'audit',
  rules: [
    'authentication.4',
    'errors.1',
    'errors.2',
    'errors.5',
    'idempotency-and-concurrency.2',
    'rate-limits.2',
    'errors.19',
    'rotating-a-secret.5',
    'schema.Problem.1',
    'schema.Problem.6',
    'schema.Problem.9',
    'schema.ProblemError.2',
    'header.RateLimit.1',
    'header.RateLimitPolicy.1',
    'header.ETag.1',
    'response.BadRequest.2',
  ],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 3, perCase: 0 },
  instances: (model, _options, check) => {
    if (!documentedResources(model)) return [];
    const subjects = model.operations.filter((op) => op.kind !== 'unknown').map((op) => op.label);
    return [{ subjects, run: (ctx) => responseAudit(ctx, check) }];
  },
});

/** Last of all: it uses up the quota of the key it probes with. */
export const rateLimitCheck = defineCheck({
  name: 'rate-limit-429',
  column: '429',
  rules: ['rate-limits.4', 'errors.19', 'header.RetryAfter.1', 'response.TooManyRequests.1'],
  needs: {},
  exercisesSuccess: false,
  cost: 'quota',
  instances: (model, options, check) => {
    const probe = model.operations.find((op) => op.kind === 'list' && op.responses.has('429'));
    if (!probe) return [];
    return [
      {
        subjects: [probe.label],
        run: (ctx) => rateLimitProbe(ctx, probe, check),
        ...(options.skipRateProbe ? { skip: options.skipRateProbe } : {}),
      },
    ];
  },
});
