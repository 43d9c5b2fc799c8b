// One report per fault: failures that share a cause (the same rule or schema field broken in the
// same operation's answers, seen by several checks or cases) are one fault, reported once, under
// the operation whose answers show it, with where else it was seen and one replay. The console,
// JUnit and the rule summary all count these.
import { ownerOf } from './cause.ts';
import type { CheckResult } from './results.ts';
import { headline } from './rules/headline.ts';
import type { Violation } from './violation.ts';

export interface Fault {
  /** What makes two failures the same fault: the operation judged, the rule (or schema pointer) and the subject. */
  key: string;
  /** The operation or webhook whose answers show it. */
  operation: string;
  /** The headline violation (the first seen). */
  violation: Violation;
  /** The one-line headline: rule, sentence, observed against expected. */
  headline: string;
  /** The result it is reported under (its replay is this result's). */
  result: CheckResult<string>;
  /** Every result that saw it, in run order, and how many violations of it each had. */
  seen: { id: string; check: string; count: number }[];
}

/**
 * Where a fault lives: the operation judged, except that every webhook's deliveries come from one
 * sender, so a rule of all deliveries (a signature header, not one event's own sentence) broken in
 * several webhooks' deliveries is one fault.
 */
function scopeOf(v: Violation, fallback: string): string {
  const operation = v.subject?.operation ?? fallback;
  return / \(webhook [^)]+\)$/.test(operation) && v.rule !== undefined && ownerOf(v.rule) === undefined ? 'every delivery' : operation;
}

// The headline rule, else the field or parameter: one sentence or one field broken in one operation is one fault.
const faultKey = (v: Violation, fallback: string) =>
  JSON.stringify([scopeOf(v, fallback), v.rule ?? v.subject?.what ?? v.pointer ?? v.observed.split('\n')[0]]);

const isTransition = (v: Violation) => v.subject?.what?.includes(' → ') === true;

/**
 * Two observations of one operation where each names the other's headline rule among its own, or
 * two status changes its life cycle forbids, accepted: one table of transitions decides them all.
 */
const sameCause = (a: Violation, b: Violation) =>
  a.subject?.operation !== undefined &&
  a.subject.operation === b.subject?.operation &&
  ((isTransition(a) && isTransition(b)) ||
    (b.rule !== undefined && (a.also ?? []).includes(b.rule)) ||
    (a.rule !== undefined && (b.also ?? []).includes(a.rule)));

/**
 * The faults of the failed results, in the order first seen. A failure whose violations all belong
 * to faults first seen elsewhere adds where it was seen to them; a fault is reported under the
 * result of its own operation when one saw it, else under the first that did.
 */
export function faultsOf(results: readonly CheckResult<string>[]): Fault[] {
  const faults = new Map<string, Fault>();
  for (const result of results) {
    if (result.outcome !== 'failed') continue;
    const operation = result.subjects[0]!;
    const violations: Violation[] = result.violations?.length
      ? result.violations
      : [{ check: result.check as Violation['check'], observed: result.error ?? 'failed', expected: '', exchanges: [] }];
    for (const violation of violations) {
      const key = faultKey(violation, operation);
      const fault = faults.get(key) ?? [...faults.values()].find((f) => sameCause(f.violation, violation));
      if (!fault) {
        faults.set(key, {
          key,
          operation: violation.subject?.operation ?? operation,
          violation,
          headline: headline(violation),
          result,
          seen: [{ id: result.id, check: result.check, count: 1 }],
        });
        continue;
      }
      const seen = fault.seen.find((s) => s.id === result.id);
      if (seen) seen.count++;
      else fault.seen.push({ id: result.id, check: result.check, count: 1 });
      if (fault.result.subjects[0] !== fault.operation && operation === fault.operation) fault.result = result;
    }
  }
  return [...faults.values()];
}

/** Which results carry a fault (the one it is reported under); the others only saw faults reported elsewhere. */
export function reportedUnder(faults: readonly Fault[]): Map<string, Fault[]> {
  const under = new Map<string, Fault[]>();
  for (const fault of faults) under.set(fault.result.id, [...(under.get(fault.result.id) ?? []), fault]);
  return under;
}

/** `also seen by: createPolicy › lifecycle (2×), …` for a fault's report. */
export function seenLine(fault: Fault): string {
  const total = fault.seen.reduce((sum, s) => sum + s.count, 0);
  const where = fault.seen.map((s) => `${s.id}${s.count > 1 ? ` (${s.count}×)` : ''}`).join(', ');
  return `  seen ${total}× in ${fault.seen.length} check${fault.seen.length === 1 ? '' : 's'}: ${where}`;
}
