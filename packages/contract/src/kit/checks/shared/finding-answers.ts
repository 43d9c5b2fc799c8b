// What the finding checks share: an answer's body, a policy id no policy has, and the problem an
// answer must be.
import type { Check } from '../../failure.ts';
import type { Exchange } from '../../http.ts';
import type { RuleId } from '../../rules/catalogue.ts';
import { PROBLEM_BASE } from './problem-table.ts';
import type { Json } from './rule-support.ts';

/** A well-formed policy id no policy has (26 Crockford base32 characters that a generator never issues). */
export const UNKNOWN_POLICY = 'pol_00000000000000000000000000';

export function json(exchange: Exchange): Json {
  return (exchange.json ?? {}) as Json;
}

export function expectProblem<R extends RuleId>(
  subject: string,
  check: Check<R>,
  exchange: Exchange,
  status: number,
  type: string,
  rule: R,
  what: string,
): void {
  const problem = exchange.json as { type?: unknown } | undefined;
  if (exchange.status !== status || problem?.type !== PROBLEM_BASE + type) {
    check.fail({
      at: subject,
      rule,
      observed: `${what}: expected ${status} ${type}, got ${exchange.status} ${String(problem?.type ?? exchange.mediaType)}`,
      exchange,
    });
  }
}
