// The checks that exercise the cells of the behaviour space no other check reaches (axes/): a
// body schema's boundaries and media types, reads after each resource state, every cross-cutting
// rule on the answers that are errors, and the rate-limit headers held against the clock.
import { bodySchemas, boundaryCells } from '../axes/boundaries.ts';
import { defineCheck } from '../check.ts';
import { boundaryInputs } from '../checks/boundary-inputs.ts';
import { errorAnswers } from '../checks/error-answers.ts';
import { failedAuthCounting } from '../checks/failed-auth.ts';
import { rateLimitClock } from '../checks/rate-limit-clock.ts';
import { receiverAnswers, startReceiverAnswers } from '../checks/receiver-answers.ts';
import { stateReads } from '../checks/state-reads.ts';
import type { ContractModel, OperationModel } from '../spec.ts';
import { documentedResources, labels } from './documented.ts';

/** The operation that sends a body schema's field cells: the first that takes it, a create before an update. */
function sendersOf(model: ContractModel): Map<string, OperationModel> {
  const senders = new Map<string, OperationModel>();
  const ordered = [...bodySchemas(model.doc, model)].sort(([a], [b]) => Number(b.kind === 'create') - Number(a.kind === 'create'));
  for (const [op, body] of ordered) if (!senders.has(body.name)) senders.set(body.name, op);
  return senders;
}

export const boundaryInputsCheck = defineCheck({
  name: 'boundary-inputs',
  column: 'bounds',
  rules: ['limits.2', 'limits.3', 'schema.Timestamp.1', 'errors.2', 'errors.5', 'errors.6', 'errors.18', 'schema.ProblemError.2'],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 60, perCase: 0 },
  instances: (model, _options, check) => {
    const { fields, media } = boundaryCells(model);
    const schemas = bodySchemas(model.doc, model);
    const senders = sendersOf(model);
    return [...schemas].map(([op, body]) => {
      const mine =
        senders.get(body.name) === op
          ? fields.filter((cell) => cell.schemaName === body.name && !(cell.inside && cell.axis.endsWith(' enum')))
          : [];
      return {
        subjects: [op.label],
        run: (ctx) =>
          boundaryInputs(
            ctx,
            op,
            mine,
            media.filter((cell) => cell.op === op),
            check,
          ),
      };
    });
  },
});

/** Before the response audit, which judges its answers too. */
export const errorAnswersCheck = defineCheck({
  name: 'error-answers',
  column: 'errs',
  rules: ['browser-clients-cors.1', 'browser-clients-cors.3', 'rate-limits.2', 'errors.1'],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 12, perCase: 0 },
  instances: (model, options, check) => {
    const policies = model.resources.find((r) => r.name === 'policies');
    if (!policies?.list || !policies.create) return [];
    return [{ subjects: [policies.list.label], run: (ctx) => errorAnswers(ctx, check, options.corsOrigin) }];
  },
});

/** After the 429 probe, whose used-up quota gives it a 429 to judge. */
export const rateLimitClockCheck = defineCheck({
  name: 'rate-limit-clock',
  column: 'clock',
  rules: [
    'header.RateLimit.1',
    'rate-limits.4',
    'header.RetryAfter.1',
    'browser-clients-cors.1',
    'browser-clients-cors.3',
    'rate-limits.2',
    'errors.1',
  ],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 4, perCase: 0 },
  instances: (model, options, check) => {
    const list = model.resources.find((r) => r.name === 'policies')?.list;
    return list ? [{ subjects: [list.label], run: (ctx) => rateLimitClock(ctx, check, options.corsOrigin) }] : [];
  },
});

/** Last of all: over the address's failed-authentication limit, nothing without a valid key is answered for a while. */
export const failedAuthCountingCheck = defineCheck({
  name: 'failed-auth-counting',
  column: 'authcount',
  rules: ['rate-limits.5'],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, options, check) => {
    const list = model.resources.find((r) => r.name === 'policies')?.list;
    if (!list?.responses.has('401')) return [];
    return [
      {
        subjects: [list.label],
        run: (ctx) => failedAuthCounting(ctx, check),
        ...(options.skipRateProbe ? { skip: options.skipRateProbe } : {}),
      },
    ];
  },
});

export const stateReadsCheck = defineCheck({
  name: 'state-reads',
  column: 'reads',
  rules: ['getPolicy.2', 'getFinding.2', 'getWebhook.2', 'idempotency-and-concurrency.3', 'header.ETag.2'],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 50, perCase: 0 },
  instances: (model, options, check) => {
    const names = model.resources.map((r) => r.name);
    if (!['policies', 'findings', 'webhooks'].every((name) => names.includes(name))) return [];
    const read = model.resources.find((r) => r.name === 'findings')!.read!;
    return [{ subjects: [read.label], run: (ctx) => stateReads(ctx, check, options.skipEvents === undefined) }];
  },
});

export const receiverAnswersCheck = defineCheck({
  name: 'receiver-answers',
  column: 'answers',
  rules: [
    'delivery-and-retries.1',
    'delivery-and-retries.2',
    'delivery-and-retries.3',
    'delivery-and-retries.4',
    'schema.LastDelivery.2',
    'schema.LastDelivery.3',
  ],
  needs: { events: true },
  exercisesSuccess: false,
  cost: { fixed: 40, perCase: 0 },
  instances: (model, options, check) => {
    const found = documentedResources(model);
    if (!found?.hook('finding.created')) return [];
    const timing = options.skipRetryTiming ? { skip: options.skipRetryTiming } : {};
    return [
      {
        subjects: labels(found.hook('finding.created')),
        run: (ctx) => receiverAnswers(ctx, check, timing),
        prepare: (ctx) => void startReceiverAnswers(ctx, check),
      },
    ];
  },
});
