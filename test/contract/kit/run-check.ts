// One planned check's run outside any test framework: its outcome, its time and cost, what it
// found as structured violations, and known limits of a target applied openly rather than silently.
import type { KitContext } from './context.ts';
import type { Exchange } from './http.ts';
import type { PlannedCheck } from './plan.ts';
import { exchangesLeadingTo, reproduction as replay } from './repro.ts';
import type { CheckResult, KnownLimit } from './results.ts';
import { traceFailure } from './rules/trace.ts';
import { ContractViolation } from './verify.ts';
import { describeError, violationsOf } from './violation.ts';

export function plannedSkip(planned: PlannedCheck): CheckResult {
  return { ...describePlanned(planned), outcome: 'skipped', reason: planned.skip!, ms: 0 };
}

/**
 * Runs one planned check with `cases` generated cases and repeats; `log` collects the exchanges it
 * causes (those of its `prepare` too, when that ran with the same log), which its violations carry.
 */
export async function runCheck(
  ctx: KitContext,
  planned: PlannedCheck,
  { knownLimits = [], log = [], cases }: { knownLimits?: KnownLimit[] | undefined; log?: Exchange[] | undefined; cases: number },
): Promise<CheckResult> {
  if (planned.skip) return plannedSkip(planned);
  const limit = knownLimits.find((l) => l.check === planned.check && (l.subject === '*' || planned.subjects.includes(l.subject)));
  const started = performance.now();
  const before = ctx.http.stats();
  // The check's own time and cost; what it waited for the quota is reported beside, not inside.
  const cost = () => {
    const after = ctx.http.stats();
    const waitedMs = after.waitedMs - before.waitedMs;
    return {
      ms: Math.max(0, Math.round(performance.now() - started - waitedMs)),
      waitedMs,
      requests: after.requests - before.requests,
      quotaCost: after.keyRequests - before.keyRequests + after.created - before.created,
    };
  };
  try {
    const result = await ctx.recording(log, () => planned.run(ctx, cases));
    if (result && typeof result === 'object' && 'skipped' in result) {
      return {
        ...describePlanned(planned),
        outcome: 'skipped',
        reason: result.skipped,
        ...(result.gate ? { gate: result.gate } : {}),
        ...cost(),
      };
    }
    const note = result && typeof result === 'object' ? { note: result.note } : {};
    if (limit && limit.subject !== '*') {
      return {
        ...describePlanned(planned),
        outcome: 'failed',
        error: `${planned.id}: declared as a known limit (${limit.reason}) but it passes now; remove the known limit`,
        ...cost(),
      };
    }
    return { ...describePlanned(planned), outcome: 'passed', ...note, ...cost() };
  } catch (error) {
    const violations = violationsOf(planned.check, error, log);
    const report = error instanceof ContractViolation ? error.message : `${planned.id}: ${describeError(error)}`;
    const failure = { error: traceFailure(planned.check, report, violations), violations, ...cost() };
    if (limit) return { ...describePlanned(planned), outcome: 'known-limit', reason: limit.reason, ...failure };
    // The longest of the violations' exchanges (each is the check's log up to what it judged).
    const own = violations.reduce<Exchange[]>((longest, v) => (v.exchanges.length > longest.length ? v.exchanges : longest), []);
    const reproduction = replay(exchangesLeadingTo(ctx.exchanges, own), {
      title: planned.id,
      report: failure.error,
      baseUrl: ctx.http.baseUrl,
    });
    return { ...describePlanned(planned), outcome: 'failed', ...failure, reproduction };
  }
}

export function describePlanned(planned: PlannedCheck) {
  return { id: planned.id, check: planned.check, subjects: planned.subjects, exercisesSuccess: planned.exercisesSuccess };
}
