// A failure as data: the check, the rule of the document it breaks, what was observed against what
// the document expects, and the exchanges that led there. The console, JUnit, `--rules` and
// reproductions all render this record; none of them reads a rule id back out of text.
import type { Exchange } from './http.ts';
import type { CheckName } from './registry.ts';
import { CATALOGUE, type RuleId } from './rules/catalogue.ts';
import type { CatalogueEntry } from './rules/rule.ts';
import { ContractViolation } from './verify.ts';

export interface Violation {
  check: CheckName;
  /** The catalogue rule it breaks; absent when what broke is a schema or a status list of the document (see `pointer`). */
  rule?: RuleId;
  /** The rule's sentence, as the document states it. */
  sentence?: string;
  /** JSON pointer into the bundled document: the description the rule is in, or the schema or response broken. */
  pointer?: string;
  /** What the target did (with the offending values, one per line after the first). */
  observed: string;
  /** What the document asks instead. */
  expected: string;
  /** The check's requests and answers up to the one judged, oldest first (keys shown by role, never by value). */
  exchanges: Exchange[];
}

/**
 * What a check's failure comes to: each discrepancy a ContractViolation names, with its rule's
 * sentence from the catalogue and the check's exchanges up to the one judged; any other error (no
 * answer, a kit precondition) as one violation with every exchange the check made.
 */
export function violationsOf(check: CheckName, error: unknown, log: readonly Exchange[]): Violation[] {
  if (!(error instanceof ContractViolation)) {
    return [{ check, observed: describeError(error), expected: 'an answer as the document describes it', exchanges: [...log] }];
  }
  const judged = error.judged ? log.indexOf(error.judged as Exchange) : -1;
  const exchanges = judged >= 0 ? log.slice(0, judged + 1) : [...log];
  return error.violations.map((discrepancy): Violation => {
    const entry = discrepancy.rule ? (CATALOGUE as readonly CatalogueEntry[]).find((e) => e.id === discrepancy.rule) : undefined;
    const pointer = entry?.at ?? discrepancy.pointer;
    return {
      check,
      ...(discrepancy.rule ? { rule: discrepancy.rule } : {}),
      ...(entry ? { sentence: entry.text } : {}),
      ...(pointer ? { pointer } : {}),
      observed: [discrepancy.message, ...discrepancy.details].join('\n'),
      expected: discrepancy.expected ?? entry?.text ?? 'an answer as the document describes it',
      exchanges,
    };
  });
}

/** An error as one line per cause, without stack frames: they would point into the kit, not the target. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `\n  caused by: ${describeError(error.cause)}` : '';
  return `${error.message}${cause}`;
}
