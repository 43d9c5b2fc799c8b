// Which checks run for which operation and webhook, derived from the document model: nothing
// here names an operation. A check that needs what the run lacks (state, a read-only key) is
// planned as skipped with its reason, so the coverage table can say why.
import { cors } from './checks/cors.ts';
import { deliveryRetry, deliverySemantics, endpointGone, startRetryProbe } from './checks/delivery-rules.ts';
import { deliveryCheck } from './checks/events.ts';
import { compliance, findingLifecycle, policyInUse, references } from './checks/findings-rules.ts';
import { invalidBodies, invalidParameters, refusedCredentials, successResponse, validInput } from './checks/operation.ts';
import { paginationRules } from './checks/pagination-rules.ts';
import { problemCatalogue, responseAudit, startRequestTimeoutProbe } from './checks/problem-rules.ts';
import { rateLimitProbe } from './checks/rate-limit.ts';
import { readScope, replaceSemantics, secrets, webhookSecret } from './checks/replace-rules.ts';
import { secretRotation } from './checks/signature-rules.ts';
import {
  availableAfterCreate,
  idempotency,
  isCrud,
  lifecycle,
  pagination,
  transitions,
  unsupportedMethod,
  useAfterDelete,
} from './checks/stateful.ts';
import type { KitContext, Profile } from './context.ts';
import { transitionsOf } from './semantics.ts';
import type { ContractModel, OperationModel } from './spec.ts';

/** `gate` on a skip: why it fails the gate anyway (nobody declared it out of scope), in one line. */
export type CheckRun = (ctx: KitContext) => Promise<'passed' | { skipped: string; gate?: string } | { note: string } | void>;

export interface PlannedCheck {
  /** Unique within the plan: `<first subject> › <check>`. */
  id: string;
  check: CheckName;
  /** Labels of the operations or webhooks this check covers; the first is the one it is filed under. */
  subjects: string[];
  /** The check verifies a success response or a delivery (what the coverage gate requires). */
  exercisesSuccess: boolean;
  /** Planned skip, with the reason shown in the coverage table. */
  skip?: string;
  run: CheckRun;
  /**
   * Started before the first check of the run, for a check that must wait on the target (the
   * 408 probe waits out its header time-out): the wait then overlaps the other checks.
   */
  prepare?: (ctx: KitContext) => void;
}

export interface PlanOptions {
  profile: Profile;
  hasReadKey: boolean;
  /** Why the 429 probe is not run in this suite (for example: another test runs it on a low-quota target). */
  skipRateProbe?: string;
  /** Why the event checks are not run (the target cannot reach the kit's receiver). */
  skipEvents?: string;
  /** The origin the target allows for browsers (the CORS check); without it a localhost origin is tried. */
  corsOrigin?: string;
  /** Why the first retry's wait and a Retry-After are not judged (a target with a compressed retry schedule). */
  skipRetryTiming?: string;
}

/** The check names, in table order. */
export const CHECKS = [
  'success-response',
  'valid-input',
  'invalid-body',
  'invalid-parameters',
  'no-credentials-401',
  'unknown-key-401',
  'read-only-key-403',
  'unsupported-method',
  'available-after-create',
  'lifecycle',
  'use-after-delete',
  'idempotency',
  'pagination',
  'transitions',
  'delivery',
  'rate-limit-429',
  // The rules the document states in words (rules/catalogue.ts names them).
  'finding-lifecycle',
  'references',
  'policy-in-use',
  'compliance',
  'replace-semantics',
  'secrets',
  'read-scope',
  'pagination-rules',
  'problem-catalogue',
  'cors',
  'delivery-semantics',
  'delivery-retry',
  'endpoint-gone',
  'secret-rotation',
  // Last: it audits every answer the run saw.
  'response-audit',
] as const;

export type CheckName = (typeof CHECKS)[number];

const STATELESS = 'stateless profile: needs a target that keeps state';

/** Adds a check to the plan, filed under its first subject; `skip` plans it as skipped with the reason. */
type AddCheck = (
  check: CheckName,
  subjects: string[],
  exercisesSuccess: boolean,
  run: CheckRun,
  skip?: string,
  prepare?: PlannedCheck['prepare'],
) => void;

export function planChecks(model: ContractModel, options: PlanOptions): PlannedCheck[] {
  const plan: PlannedCheck[] = [];
  const stateful = options.profile === 'stateful';
  const add: AddCheck = (check, subjects, exercisesSuccess, run, skip, prepare) =>
    plan.push({
      id: `${subjects[0]} › ${check}`,
      check,
      subjects,
      exercisesSuccess,
      run,
      ...(skip ? { skip } : {}),
      ...(prepare ? { prepare } : {}),
    });

  for (const op of model.operations) {
    if (op.kind === 'unknown') continue;
    const resource = model.resources.find((r) => r.name === op.resource)!;
    // Updates of a resource with a state machine start from a fresh resource, so each is legal.
    const fresh = stateful && op.kind === 'update' && transitionsOf(model, resource.update) !== undefined;
    add('success-response', [op.label], true, (ctx) => successResponse(ctx, op, 'success-response', fresh));
    if (op.body || hasQuery(op)) add('valid-input', [op.label], true, (ctx) => validInput(ctx, op, 'valid-input', fresh));
    if (op.body) add('invalid-body', [op.label], false, (ctx) => invalidBodies(ctx, op, 'invalid-body'));
    add('invalid-parameters', [op.label], false, (ctx) => invalidParameters(ctx, op, 'invalid-parameters'));
    if (op.scopes.length > 0 && op.responses.has('401')) {
      add('no-credentials-401', [op.label], false, (ctx) => refusedCredentials(ctx, op, 'no-credentials-401'));
      add('unknown-key-401', [op.label], false, (ctx) => refusedCredentials(ctx, op, 'unknown-key-401'));
    }
    if (op.scopes.includes('write') && op.responses.has('403')) {
      add(
        'read-only-key-403',
        [op.label],
        false,
        (ctx) => refusedCredentials(ctx, op, 'read-only-key-403'),
        options.hasReadKey ? undefined : 'no --read-key given',
      );
    }
  }

  const paths = new Map<string, OperationModel[]>();
  for (const op of model.operations.filter((candidate) => candidate.kind !== 'unknown'))
    paths.set(op.path, [...(paths.get(op.path) ?? []), op]);
  for (const operations of paths.values()) {
    // An item path needs an existing id, so a stateless target gets a made-up one (and 404 may come first).
    add(
      'unsupported-method',
      operations.map((op) => op.label),
      false,
      (ctx) => unsupportedMethod(ctx, operations, 'unsupported-method'),
      stateful ? undefined : STATELESS,
    );
  }

  for (const resource of model.resources.filter(isCrud)) {
    const crud = [resource.create, resource.read, resource.list, resource.update, resource.delete].map((op) => op.label);
    const stateless = stateful ? undefined : STATELESS;
    add(
      'available-after-create',
      [resource.create.label, resource.read.label, resource.list.label],
      true,
      (ctx) => availableAfterCreate(ctx, resource, 'available-after-create'),
      stateless,
    );
    add('lifecycle', crud, true, (ctx) => lifecycle(ctx, resource, 'lifecycle'), stateless);
    add(
      'use-after-delete',
      [resource.delete.label, resource.read.label, resource.update.label, resource.list.label],
      true,
      (ctx) => useAfterDelete(ctx, resource, 'use-after-delete'),
      stateless,
    );
    const key = resource.create.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    if (key && resource.create.responses.has('409')) {
      add(
        'idempotency',
        [resource.create.label],
        true,
        (ctx) => idempotency(ctx, resource, key.name, 'idempotency'),
        stateful ? undefined : STATELESS,
      );
    }
    add('pagination', [resource.list.label], true, (ctx) => pagination(ctx, resource, 'pagination'), stateful ? undefined : STATELESS);
    const machine = transitionsOf(model, resource.update);
    if (machine) {
      add(
        'transitions',
        [resource.update.label],
        true,
        (ctx) => transitions(ctx, resource, machine, 'transitions'),
        stateful ? undefined : STATELESS,
      );
    }
  }

  for (const webhook of model.webhooks) {
    add(
      'delivery',
      [webhook.label],
      true,
      (ctx) => deliveryCheck(ctx, webhook, 'delivery'),
      stateful ? options.skipEvents : 'stateless profile: the target keeps no subscriptions and sends no events',
    );
  }

  planRuleChecks(model, options, add);

  const probe = model.operations.find((op) => op.kind === 'list' && op.responses.has('429'));
  if (probe) add('rate-limit-429', [probe.label], false, (ctx) => rateLimitProbe(ctx, probe, 'rate-limit-429'), options.skipRateProbe);
  return plan;
}

/**
 * The checks of the rules the document states in words. They need the three resources (and the
 * events their changes cause), so a document without them gets none of these checks.
 */
function planRuleChecks(model: ContractModel, options: PlanOptions, add: AddCheck): void {
  const [policies, findings, webhooks] = ['policies', 'findings', 'webhooks'].map((name) =>
    model.resources.find((r) => r.name === name && isCrud(r)),
  );
  if (!policies || !findings || !webhooks || !isCrud(policies) || !isCrud(findings) || !isCrud(webhooks)) return;
  const stateless = options.profile === 'stateful' ? undefined : STATELESS;
  const events = stateless ?? options.skipEvents;
  const hook = (event: string) => model.webhooks.find((w) => w.event === event)?.label;
  const labels = (...items: (string | undefined)[]) => items.filter((item): item is string => item !== undefined);
  add(
    'finding-lifecycle',
    [findings.update.label, findings.create.label, findings.read.label],
    true,
    (ctx) => findingLifecycle(ctx, 'finding-lifecycle'),
    stateless,
  );
  add('references', [findings.create.label, findings.update.label], false, (ctx) => references(ctx, 'references'), stateless);
  add('policy-in-use', [policies.delete.label, findings.update.label], true, (ctx) => policyInUse(ctx, 'policy-in-use'), stateless);
  add(
    'compliance',
    labels(policies.read.label, findings.create.label, findings.update.label, findings.delete.label, hook('compliance.changed')),
    true,
    (ctx) => compliance(ctx, 'compliance'),
    stateless,
  );
  for (const resource of [policies, findings, webhooks]) {
    add(
      'replace-semantics',
      [resource.update.label],
      true,
      async (ctx) => {
        await replaceSemantics(ctx, resource, 'replace-semantics');
        if (resource === webhooks) await webhookSecret(ctx, 'replace-semantics');
      },
      stateless,
    );
  }
  add(
    'secrets',
    [webhooks.read.label, webhooks.list.label, webhooks.create.label, webhooks.update.label],
    true,
    (ctx) => secrets(ctx, 'secrets'),
    stateless,
  );
  const reads = model.resources.flatMap((r) => labels(r.list?.label, r.read?.label));
  add(
    'read-scope',
    reads,
    true,
    (ctx) => readScope(ctx, 'read-scope'),
    stateless ?? (options.hasReadKey ? undefined : 'no --read-key given'),
  );
  add('pagination-rules', [policies.list.label], true, (ctx) => paginationRules(ctx, 'pagination-rules'), stateless);
  add(
    'problem-catalogue',
    [
      policies.list.label,
      policies.create.label,
      policies.read.label,
      policies.update.label,
      policies.delete.label,
      findings.update.label,
      webhooks.create.label,
    ],
    false,
    (ctx) => problemCatalogue(ctx, 'problem-catalogue'),
    stateless,
    startRequestTimeoutProbe,
  );
  add('cors', [policies.list.label], false, (ctx) => cors(ctx, 'cors', options.corsOrigin));
  add(
    'delivery-semantics',
    labels(hook('finding.created'), hook('finding.resolved')),
    true,
    (ctx) => deliverySemantics(ctx, 'delivery-semantics'),
    events,
  );
  const timing = options.skipRetryTiming ? { skip: options.skipRetryTiming } : {};
  add(
    'delivery-retry',
    labels(hook('finding.created')),
    true,
    (ctx) => deliveryRetry(ctx, 'delivery-retry', timing),
    events,
    (ctx) => void startRetryProbe(ctx, 'delivery-retry', timing),
  );
  add('endpoint-gone', labels(hook('finding.created'), webhooks.update.label), true, (ctx) => endpointGone(ctx, 'endpoint-gone'), events);
  add(
    'secret-rotation',
    labels(hook('finding.created'), webhooks.update.label),
    true,
    (ctx) => secretRotation(ctx, 'secret-rotation'),
    events,
  );
  add(
    'response-audit',
    model.operations.filter((op) => op.kind !== 'unknown').map((op) => op.label),
    false,
    (ctx) => responseAudit(ctx, 'response-audit'),
    stateless,
  );
}

function hasQuery(op: OperationModel): boolean {
  return op.params.some((p) => p.in === 'query');
}
