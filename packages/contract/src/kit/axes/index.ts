// The behaviour space of the document and what a run exercised of it: the cells of every axis
// family, and for each the checks whose exchanges or deliveries reached it, read from the run's
// logs after it ends (a check need not know the axes to exercise them).
import type { Exchange } from '../http.ts';
import type { Delivery } from '../receiver.ts';
import type { CheckResult } from '../results.ts';
import type { ContractModel, OperationModel } from '../spec.ts';
import {
  CORS_AXIS,
  credentialKind,
  credentialSpellingOf,
  crossCuttingCells,
  crossCuttingOf,
  receiverCells,
  receiverCellsOf,
  timeCells,
} from './answers.ts';
import { bodySchemas, boundaryCells, boundaryCellsOf } from './boundaries.ts';
import { parameterCells, parameterCellsOf } from './parameters.ts';
import { type AxisCoverage, axisCoverage, type Cell, type Exercised, exercise } from './space.ts';
import { stateAxes } from './states.ts';

export type { AxisCoverage } from './space.ts';
export { formatAxisCoverage } from './space.ts';

/** The check that judges each header-over-time cell (a comparison with the clock, which no exchange shows by itself). */
const TIME_JUDGES: Record<string, string> = {
  'falls by one per accepted request within a window': 'rate-limit-clock',
  'counts down with elapsed time, never later than the last t said': 'rate-limit-clock',
  'a request before it has passed is refused again': 'rate-limit-clock',
};

/** Checks that judge the cross-cutting rules on the answers they provoke. */
const OWN_JUDGES = new Set(['error-answers', 'rate-limit-clock']);

export interface RunEvidence {
  /** Every exchange of the run, in the order they completed. */
  exchanges: readonly Exchange[];
  /** Each check's exchanges, by result id. */
  logs: ReadonlyMap<string, readonly Exchange[]>;
  deliveries: readonly Delivery[];
  results: readonly CheckResult[];
}

export function behaviourSpace(model: ContractModel): Cell[] {
  const { fields, media } = boundaryCells(model);
  return [
    ...stateAxes(model).cells,
    ...fields,
    ...parameterCells(model),
    ...media,
    ...receiverCells(model),
    ...timeCells(),
    ...crossCuttingCells(model),
  ];
}

function operationOf(model: ContractModel, exchange: Exchange): OperationModel | undefined {
  const path = new URL(exchange.request.url).pathname;
  return model.operations.find(
    (op) => op.method.toUpperCase() === exchange.request.method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
}

/** Which cells of the behaviour space a run's evidence exercised, and by which checks. */
export function exercisedCells(model: ContractModel, evidence: RunEvidence): AxisCoverage {
  const exercised: Exercised = new Map();
  const byExchange = new Map<Exchange, string>();
  for (const [id, log] of evidence.logs) for (const exchange of log) if (!byExchange.has(exchange)) byExchange.set(exchange, id);
  const ran = new Set(evidence.results.filter((r) => r.outcome === 'passed' || r.outcome === 'failed').map((r) => r.id));
  const who = (exchange: Exchange) => byExchange.get(exchange) ?? 'the run (no check)';
  const checkOf = (id: string) => evidence.results.find((r) => r.id === id)?.check;

  stateAxes(model).replay(evidence.exchanges, (exchange, cell) => exercise(exercised, cell, who(exchange)));

  const boundaries = boundaryCells(model);
  const parameters = parameterCells(model);
  const schemas = bodySchemas(model.doc, model);
  // The response audit judges every answer the run had before it.
  const audit = evidence.results.find((r) => r.check === 'response-audit' && ran.has(r.id));
  const auditLog = audit ? evidence.logs.get(audit.id) : undefined;
  const auditedUpTo = auditLog && auditLog.length > 0 ? evidence.exchanges.indexOf(auditLog[auditLog.length - 1]!) : -1;
  evidence.exchanges.forEach((exchange, index) => {
    const op = operationOf(model, exchange);
    const body = op && schemas.get(op);
    if (op && body) for (const cell of boundaryCellsOf(boundaries, op, body, exchange)) exercise(exercised, cell, who(exchange));
    if (op) for (const cell of parameterCellsOf(parameters, op, exchange)) exercise(exercised, cell, who(exchange));
    // The response audit judges every answer before it; these judge their own.
    const own = OWN_JUDGES.has(checkOf(who(exchange)) ?? '');
    const audited = index <= auditedUpTo || own;
    for (const cell of crossCuttingOf(exchange, audited))
      exercise(exercised, cell, own || cell.axis === CORS_AXIS ? who(exchange) : audit!.id);
    const spelling = credentialSpellingOf(exchange);
    if (spelling) exercise(exercised, spelling, who(exchange));
    const kind = credentialKind(exchange);
    if (kind !== 'a valid key' && (exchange.status === 401 || exchange.status === 429) && failedAuthJudge(evidence, ran, who(exchange)))
      exercise(
        exercised,
        {
          family: 'cross-cutting rules',
          axis: exchange.status === 401 ? 'failed authentication counted per address' : 'over the failed-authentication limit: 429',
          cell: kind,
        },
        who(exchange),
      );
  });

  for (const { delivery, cell } of receiverCellsOf(evidence.deliveries)) {
    const webhook = String(delivery.headers['x-service-webhook-id'] ?? '');
    const creator = evidence.exchanges.find((e) => e.request.method === 'POST' && (e.json as { id?: unknown } | undefined)?.id === webhook);
    exercise(exercised, cell, creator ? who(creator) : 'the run (no check)');
  }

  for (const cell of timeCells()) {
    const judge = TIME_JUDGES[cell.cell];
    // A note says what it could not hold against the clock this run.
    const result = judge && evidence.results.find((r) => r.check === judge && r.outcome !== 'skipped' && !r.note);
    if (result) exercise(exercised, cell, result.id);
  }
  return axisCoverage(behaviourSpace(model), exercised);
}

/** Failed authentication is judged as counted only by a check that provokes the address's limit. */
function failedAuthJudge(evidence: RunEvidence, ran: Set<string>, by: string): boolean {
  return ran.has(by) && evidence.results.some((r) => r.id === by && r.check === 'failed-auth-counting');
}
