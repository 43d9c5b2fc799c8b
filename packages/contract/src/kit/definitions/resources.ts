// The checks a resource with the full set of operations gets (create, read, list, update, delete):
// what a create makes is readable, the life cycle with ETags and preconditions, deletes that stay
// deleted, idempotent creates, pagination, a state machine's transitions, and the paths' 405s.
import { defineCheck, type Instance } from '../check.ts';
import { pagination } from '../checks/page-walk.ts';
import { availableAfterCreate, idempotency, isCrud, lifecycle, unsupportedMethod, useAfterDelete } from '../checks/stateful.ts';
import { transitions } from '../checks/transitions.ts';
import { transitionsOf } from '../semantics.ts';
import type { ContractModel, OperationModel } from '../spec.ts';

const cruds = (model: ContractModel) => model.resources.filter(isCrud);

export const unsupportedMethodCheck = defineCheck({
  name: 'unsupported-method',
  column: '405',
  rules: ['errors.11'],
  // An item path needs an existing id: a stateless target would answer for a made-up one (404 may come first).
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 1, perCase: 0 },
  instances: (model, _options, check) => {
    const paths = new Map<string, OperationModel[]>();
    for (const op of model.operations.filter((candidate) => candidate.kind !== 'unknown'))
      paths.set(op.path, [...(paths.get(op.path) ?? []), op]);
    return [...paths.values()].map(
      (operations): Instance => ({ subjects: operations.map((op) => op.label), run: (ctx) => unsupportedMethod(ctx, operations, check) }),
    );
  },
});

export const availableAfterCreateCheck = defineCheck({
  name: 'available-after-create',
  column: 'avail',
  rules: ['pagination.1', 'createPolicy.3', 'createFinding.3', 'createWebhook.4'],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 0 },
  instances: (model, _options, check) =>
    cruds(model).map((resource) => ({
      subjects: [resource.create.label, resource.read.label, resource.list.label],
      run: (ctx) => availableAfterCreate(ctx, resource, check),
    })),
});

export const lifecycleCheck = defineCheck({
  name: 'lifecycle',
  column: 'crud',
  rules: [
    'idempotency-and-concurrency.2',
    'idempotency-and-concurrency.3',
    'idempotency-and-concurrency.5',
    'versioning.14',
    'getPolicy.2',
    'updatePolicy.2',
    'updatePolicy.3',
    'deletePolicy.3',
    'getFinding.2',
    'updateFinding.5',
    'updateFinding.11',
    'updateFinding.12',
    'deleteFinding.3',
    'getWebhook.2',
    'updateWebhook.3',
    'updateWebhook.4',
    'deleteWebhook.3',
    'schema.Policy.3',
    'param.IfNoneMatch.1',
    'param.IfMatch.1',
    'header.ETag.1',
    'header.ETag.2',
    'response.NotModified.1',
    'response.PreconditionFailed.1',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 5, perCase: 0 },
  instances: (model, _options, check) =>
    cruds(model).map((resource) => ({
      subjects: [resource.create, resource.read, resource.list, resource.update, resource.delete].map((op) => op.label),
      run: (ctx) => lifecycle(ctx, resource, check),
    })),
});

export const useAfterDeleteCheck = defineCheck({
  name: 'use-after-delete',
  column: 'gone',
  rules: [
    'deletePolicy.1',
    'deleteFinding.1',
    'deleteWebhook.1',
    'param.PolicyIdPath.2',
    'param.FindingIdPath.2',
    'param.WebhookIdPath.2',
    'response.NotFound.1',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 4, perCase: 0 },
  instances: (model, _options, check) =>
    cruds(model).map((resource) => ({
      subjects: [resource.delete.label, resource.read.label, resource.update.label, resource.list.label],
      run: (ctx) => useAfterDelete(ctx, resource, check),
    })),
});

export const idempotencyCheck = defineCheck({
  name: 'idempotency',
  column: 'idem',
  rules: [
    'idempotency-and-concurrency.1',
    'createPolicy.4',
    'createFinding.4',
    'createWebhook.5',
    'param.IdempotencyKey.2',
    'header.IdempotentReplayed.1',
    'response.IdempotencyConflict.1',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 5, perCase: 0 },
  instances: (model, _options, check) =>
    cruds(model).flatMap((resource): Instance[] => {
      const key = resource.create.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      if (!key || !resource.create.responses.has('409')) return [];
      return [{ subjects: [resource.create.label], run: (ctx) => idempotency(ctx, resource, key.name, check) }];
    }),
});

export const paginationCheck = defineCheck({
  name: 'pagination',
  column: 'pages',
  rules: [
    'pagination.1',
    'pagination.3',
    'listPolicies.1',
    'listPolicies.2',
    'listFindings.1',
    'listFindings.2',
    'listWebhooks.1',
    'listWebhooks.2',
    'schema.FindingList.1',
    'schema.NextCursor.1',
    'schema.PolicyList.1',
    'schema.WebhookList.1',
    'param.Cursor.1',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 6, perCase: 0.2 },
  instances: (model, _options, check) =>
    cruds(model).map((resource) => ({ subjects: [resource.list.label], run: (ctx, cases) => pagination(ctx, resource, check, cases) })),
});

export const transitionsCheck = defineCheck({
  name: 'transitions',
  column: 'states',
  rules: [
    'updateFinding.1',
    'updateFinding.2',
    'updateFinding.14',
    'schema.FindingStatus.3',
    'schema.FindingStatus.4',
    'schema.FindingStatus.5',
    'schema.FindingStatus.6',
    'schema.FindingStatus.7',
    'schema.FindingStatus.8',
    'schema.FindingUpdate.5',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 21, perCase: 0 },
  instances: (model, _options, check) =>
    cruds(model).flatMap((resource): Instance[] => {
      const machine = transitionsOf(model, resource.update);
      return machine ? [{ subjects: [resource.update.label], run: (ctx) => transitions(ctx, resource, machine, check) }] : [];
    }),
});
