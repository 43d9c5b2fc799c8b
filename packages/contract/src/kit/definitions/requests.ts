// The checks every operation gets from its own entry in the document: its success response,
// generated valid and invalid input, and the answers to missing, unknown and under-scoped keys.
import { defineCheck, type Instance } from '../check.ts';
import { invalidBodies, invalidParameters, refusedCredentials, successResponse, validInput } from '../checks/operation.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { transitionsOf } from '../semantics.ts';
import type { ContractModel, OperationModel } from '../spec.ts';

const operations = (model: ContractModel) => model.operations.filter((op) => op.kind !== 'unknown');
const each = (model: ContractModel, keep: (op: OperationModel) => boolean, run: (op: OperationModel) => Instance['run']): Instance[] =>
  operations(model)
    .filter(keep)
    .map((op) => ({ subjects: [op.label], run: run(op) }));

/** Updates of a resource with a state machine start from a fresh resource, so each is legal. */
function fresh(model: ContractModel, op: OperationModel, stateful: boolean): boolean {
  const resource = model.resources.find((r) => r.name === op.resource);
  return stateful && op.kind === 'update' && resource !== undefined && transitionsOf(model, resource.update) !== undefined;
}

/** What both 401 checks judge: a missing or unknown key is refused, over the address's limit with a 429. */
const FAILED_AUTHENTICATION = [
  'authentication.3',
  'errors.19',
  'rate-limits.5',
  'rate-limits.6',
  'rate-limits.7',
  'header.RateLimit.2',
  'header.RateLimitPolicy.2',
  'response.Unauthorized.1',
  'response.Unauthorized.3',
  'response.TooManyRequests.1',
] as const;

const refusable = (op: OperationModel) => op.scopes.length > 0 && op.responses.has('401');

/** What success-response judges (a stated format a value breaks names its sentence when it is one of these). */
const SUCCESS_RULES = [
  'authentication.1',
  'pagination.1',
  'limits.2',
  'limits.3',
  'webhooks.1',
  'versioning.1',
  'versioning.14',
  'createPolicy.1',
  'createPolicy.3',
  'getPolicy.1',
  'createFinding.1',
  'createFinding.3',
  'getFinding.1',
  'createWebhook.1',
  'createWebhook.4',
  'getWebhook.1',
  'security.bearerAuth.1',
  'schema.DeviceId.1',
  'schema.FindingId.1',
  'schema.PolicyId.1',
  'schema.Timestamp.1',
  'schema.WebhookId.1',
  'header.PolicyLocation.1',
  'header.FindingLocation.1',
  'header.WebhookLocation.1',
] as const;

export const successResponseCheck = defineCheck({
  name: 'success-response',
  column: 'ok',
  rules: [...SUCCESS_RULES],
  needs: {},
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 0 },
  instances: (model, options, check) =>
    each(
      model,
      () => true,
      (op) => (ctx) => successResponse(ctx, op, check, fresh(model, op, options.profile === 'stateful'), SUCCESS_RULES),
    ),
});

export const validInputCheck = defineCheck({
  name: 'valid-input',
  column: 'valid',
  rules: [
    'webhooks.1',
    'versioning.14',
    'listPolicies.3',
    'listFindings.3',
    'listFindings.6',
    'listFindings.7',
    'listFindings.8',
    'listWebhooks.3',
    'listWebhooks.6',
    'param.EnabledFilter.1',
    'param.SeverityFilter.1',
  ],
  needs: {},
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 2 },
  instances: (model, options, check) =>
    each(
      model,
      (op) => op.body !== undefined || op.params.some((p) => p.in === 'query'),
      (op) => (ctx, cases) => validInput(ctx, op, check, fresh(model, op, options.profile === 'stateful'), cases),
    ),
});

/** What the invalid-body check judges; an accepted invalid part names the rules its schema's description states. */
const INVALID_BODY_RULES: readonly RuleId[] = [
  'limits.1',
  'limits.2',
  'schema.ComplianceStatus.2',
  'schema.WebhookEvents.1',
  'schema.WebhookUrl.2',
  'response.PayloadTooLarge.1',
  'response.UnsupportedMediaType.1',
];

export const invalidBodyCheck = defineCheck({
  name: 'invalid-body',
  column: 'badbody',
  rules: INVALID_BODY_RULES,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 1, perCase: 1 },
  instances: (model, _options, check) =>
    each(
      model,
      (op) => op.body !== undefined,
      (op) => (ctx, cases) => invalidBodies(ctx, op, check, cases, INVALID_BODY_RULES),
    ),
});

export const invalidParametersCheck = defineCheck({
  name: 'invalid-parameters',
  column: 'badparam',
  rules: [
    'pagination.2',
    'listPolicies.4',
    'listFindings.4',
    'listWebhooks.4',
    'param.Limit.1',
    'param.PolicyIdPath.2',
    'param.FindingIdPath.2',
    'param.WebhookIdPath.2',
  ],
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 2, perCase: 0.3 },
  instances: (model, _options, check) =>
    each(
      model,
      () => true,
      (op) => (ctx, cases) => invalidParameters(ctx, op, check, cases),
    ),
});

export const noCredentialsCheck = defineCheck({
  name: 'no-credentials-401',
  column: '401',
  rules: ['authentication.1', 'listPolicies.5', 'security.bearerAuth.1', 'header.WWWAuthenticate.1', ...FAILED_AUTHENTICATION],
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, _options, check) => each(model, refusable, (op) => (ctx) => refusedCredentials(ctx, op, check)),
});

export const unknownKeyCheck = defineCheck({
  name: 'unknown-key-401',
  column: '401key',
  rules: FAILED_AUTHENTICATION,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, _options, check) => each(model, refusable, (op) => (ctx) => refusedCredentials(ctx, op, check)),
});

export const readOnlyKeyCheck = defineCheck({
  name: 'read-only-key-403',
  column: '403',
  rules: [
    'authentication.2',
    'authentication.3',
    'createPolicy.5',
    'updatePolicy.4',
    'deletePolicy.4',
    'createFinding.5',
    'updateFinding.6',
    'deleteFinding.4',
    'createWebhook.6',
    'updateWebhook.5',
    'deleteWebhook.4',
    'security.bearerAuth.2',
    'response.Forbidden.1',
  ],
  needs: { readKey: true },
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, _options, check) =>
    each(
      model,
      (op) => op.scopes.includes('write') && op.responses.has('403'),
      (op) => (ctx) => refusedCredentials(ctx, op, check),
    ),
});
