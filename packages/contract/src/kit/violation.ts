// A failure as data: the check, the rule of the document it breaks, what was observed against what
// the document expects, and the exchanges that led there. The console, JUnit, `--rules` and
// reproductions all render this record; none of them reads a rule id back out of text.
import { causeOf, rulesQuoting, type Subject, subjectOf } from './cause.ts';
import type { Exchange } from './http.ts';
import { type CheckName, definitionOf } from './registry.ts';
import { CATALOGUE, type RuleId } from './rules/catalogue.ts';
import type { CatalogueEntry } from './rules/rule.ts';
import { ContractViolation, type Discrepancy } from './verify.ts';

export interface Violation {
  check: CheckName;
  /** The catalogue rule it breaks most directly (the headline); absent when what broke is a schema or a status list of the document (see `pointer`). */
  rule?: RuleId;
  /** Other rules the same observation breaks or touches, after the headline. */
  also?: RuleId[];
  /** What it is about: the operation judged and the field, parameter, header or transition involved. */
  subject?: Subject;
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
  const rulesJudged = entriesOf(definitionOf(check).rules);
  return observations(error.violations).map(({ discrepancy, rules }): Violation => {
    const named = entriesOf(rules);
    const subject = subjectOf(error.operation, discrepancy.message, discrepancy.details, [...named, ...rulesJudged], discrepancy.subject);
    const judgedOrQuoting = [...rulesJudged, ...rulesQuoting(subject).filter((entry) => !rulesJudged.includes(entry))];
    const { rule, also } = causeOf(subject, discrepancy.message, named, judgedOrQuoting);
    const entry = rule ? entriesOf([rule])[0] : undefined;
    const pointer = entry?.at ?? discrepancy.pointer;
    return {
      check,
      ...(rule ? { rule } : {}),
      ...(also.length > 0 ? { also } : {}),
      subject,
      ...(entry ? { sentence: entry.text } : {}),
      ...(pointer ? { pointer } : {}),
      observed: [discrepancy.message, ...discrepancy.details].join('\n'),
      expected: discrepancy.expected ?? entry?.text ?? 'an answer as the document describes it',
      exchanges,
    };
  });
}

const entriesOf = (ids: readonly string[]): CatalogueEntry[] =>
  ids.flatMap((id) => (CATALOGUE as readonly CatalogueEntry[]).filter((entry) => entry.id === id));

/** One observation per distinct message: a check names each rule it breaks as its own discrepancy (verify.ts `naming`). */
function observations(discrepancies: readonly Discrepancy[]): { discrepancy: Discrepancy; rules: RuleId[] }[] {
  const byText = new Map<string, { discrepancy: Discrepancy; rules: RuleId[] }>();
  for (const discrepancy of discrepancies) {
    const key = JSON.stringify([discrepancy.aspect, discrepancy.message, discrepancy.details]);
    const seen = byText.get(key) ?? { discrepancy, rules: [] };
    if (discrepancy.rule && !seen.rules.includes(discrepancy.rule)) seen.rules.push(discrepancy.rule);
    byText.set(key, seen);
  }
  return [...byText.values()];
}

/** An error as one line per cause, without stack frames: they would point into the kit, not the target. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `\n  caused by: ${describeError(error.cause)}` : '';
  return `${error.message}${cause}`;
}
