// A problem answer judged against its row of the document's Errors table: the row's status and
// type, a type that is one of the table's URIs, the problem media type, the request path as
// `instance`, and the body against the schema its operation documents for that status; and an
// answer read off a raw connection (no operation to hold its body to) by its status and type.
import type { KitContext } from '../../context.ts';
import type { Check } from '../../failure.ts';
import type { Exchange } from '../../http.ts';
import type { RawAnswer } from '../../raw-http.ts';
import type { StatedRule } from '../../rules/stated.ts';
import type { OperationModel } from '../../spec.ts';
import { conformance, type Discrepancy, truncate } from '../../verify.ts';
import { PROBLEM_BASE, type ProblemRow } from './problem-table.ts';
import type { Json } from './rule-support.ts';

/** The rules a problem answer breaks beside its row's own. */
export type ProblemRule = 'errors.1' | 'errors.2' | 'schema.Problem.4' | 'schema.Problem.8';

/** An answer provoked to be the problem of `row`: `what` the kit sent, and the `instance` it must name when it is the request path. */
export interface Provoked {
  op: OperationModel;
  exchange: Exchange;
  row: ProblemRow;
  what: string;
  instance?: string | undefined;
  /** Other sentences that state the same refusal. */
  also?: readonly StatedRule[];
}

/** What a provoked problem breaks of its row, of the table (`table`) and of its operation's schema. */
export function problemBreaks(
  ctx: KitContext,
  check: Check<ProblemRule>,
  table: readonly ProblemRow[],
  { op, exchange, row, what, instance, also = [] }: Provoked,
): Discrepancy[] {
  const problem = exchange.json as Json | undefined;
  const breaks: Discrepancy[] = [];
  if (exchange.status !== row.status || problem?.type !== PROBLEM_BASE + row.type) {
    const message = `${what}: expected ${row.status} with type ${PROBLEM_BASE}${row.type}, got ${exchange.status} ${String(problem?.type ?? exchange.mediaType)}`;
    breaks.push(...check.found({ rule: [row.rule, ...also], observed: message }));
    // A type that is none of the catalogue's URIs cannot be branched on, which is what a stable type is for.
    if (problem?.type !== undefined && !table.some((r) => problem.type === PROBLEM_BASE + r.type))
      breaks.push(
        ...check.found({
          rule: 'schema.Problem.4',
          observed: `${what}: the type ${String(problem.type)} is none of the catalogue's URIs`,
        }),
      );
  } else if (exchange.mediaType !== 'application/problem+json') {
    breaks.push(
      ...check.found({
        rule: 'errors.1',
        observed: `${what}: the ${exchange.status} is ${exchange.mediaType || 'without a body'}, not application/problem+json`,
      }),
    );
  } else if (instance !== undefined && problem.instance !== instance) {
    breaks.push(
      ...check.found({
        rule: 'schema.Problem.8',
        observed: `${what}: instance is ${JSON.stringify(problem.instance)}, not the request path ${instance}`,
      }),
    );
  }
  return [...breaks, ...problemBodyBreaks(ctx, op, exchange)];
}

/**
 * The problem's body against the schema its operation documents for that status, as `check.conform`
 * reads other answers (its media type and headers are judged above and by the checks of their own
 * rules); a break inside `errors` names the sentence that gives its items' form. A status the
 * operation does not document (a route or method it does not have) is the audit's to judge.
 */
function problemBodyBreaks(ctx: KitContext, op: OperationModel, exchange: Exchange): Discrepancy[] {
  if (!op.responses.has(String(exchange.status))) return [];
  return conformance(ctx.sentValidator, op, exchange)
    .filter((discrepancy) => discrepancy.aspect === 'response-schema')
    .map((discrepancy) =>
      discrepancy.details.some((line) => line.startsWith('/errors'))
        ? { ...discrepancy, rule: 'errors.2' satisfies ProblemRule }
        : discrepancy,
    );
}

/** What an answer read off a raw connection (`what` the kit sent) breaks of the problem of `row`. */
export function rawProblemBreaks(check: Check<ProblemRule>, answer: RawAnswer, row: ProblemRow, what: string): Discrepancy[] {
  let problem: Json | undefined;
  try {
    problem = JSON.parse(answer.body) as Json;
  } catch {
    problem = undefined;
  }
  if (answer.status === row.status && problem?.type === PROBLEM_BASE + row.type) return [];
  return check.found({
    rule: row.rule,
    observed: `${what}: expected ${row.status} with type ${PROBLEM_BASE}${row.type}, got ${String(answer.status ?? 'no answer')} ${truncate(answer.body, 200)}`,
    details: [`the kit waited ${answer.answeredAfterMs} ms for the answer`],
  });
}
