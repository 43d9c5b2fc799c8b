// One planned check's run outside any test framework: its outcome, its time and cost, what it
// found as structured violations, and known limits of a target applied openly rather than silently.
import type { KitContext } from './context.ts';
import type { Exchange } from './http.ts';
import type { PlannedCheck } from './plan.ts';
import { reproduction as replay } from './repro.ts';
import { deliveryReproduction } from './repro-delivery.ts';
import { deliverySymptomOf, webhookEventOf } from './repro-delivery-symptom.ts';
import { symptomOf } from './repro-judge.ts';
import { exchangesLeadingTo } from './repro-needed.ts';
import type { CheckResult, KnownLimit } from './results.ts';
import { headline } from './rules/headline.ts';
import { traceFailure } from './rules/trace.ts';
import { ContractViolation } from './verify.ts';
import { type JudgedViolations, judgeViolations, newInClause, type VersionJudge } from './version-judge.ts';
import { describeError, type Violation, violationsOf } from './violation.ts';

export function plannedSkip(planned: PlannedCheck): CheckResult {
  return { ...describePlanned(planned), outcome: 'skipped', reason: planned.skip!, ms: 0 };
}

/**
 * Runs one planned check with `cases` generated cases and repeats; `log` collects the exchanges it
 * causes (those of its `prepare` too, when that ran with the same log), which its violations carry.
 * With a `judge`, what it finds is judged by the version the target implements: only newer
 * obligations found, it is skipped as not part of that version; a failure names the version that
 * introduced what it breaks when that is not the first.
 */
export async function runCheck(
  ctx: KitContext,
  planned: PlannedCheck,
  {
    knownLimits = [],
    log = [],
    cases,
    judge,
  }: { knownLimits?: KnownLimit[] | undefined; log?: Exchange[] | undefined; cases: number; judge?: VersionJudge | undefined },
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
    const found = violationsOf(planned.check, error, log);
    const { judged, notInTarget } = judge
      ? judgeViolations(judge, found)
      : { judged: found.map((violation) => ({ violation })), notInTarget: [] };
    if (judge && judged.length === 0 && notInTarget.length > 0) {
      const reason = `not part of ${judge.target} (--contract-version ${judge.target}): it found only what is ${newInClause(notInTarget)}`;
      return { ...describePlanned(planned), outcome: 'skipped', reason, ...cost() };
    }
    const violations = judged.map((j) => j.violation);
    const report = error instanceof ContractViolation ? error.message : `${planned.id}: ${describeError(error)}`;
    const newIn = newInClause(judged);
    const traced = withVersions(traceFailure(planned.check, report, violations), newIn, notInTarget, judge);
    const failure = { error: traced, violations, ...(newIn ? { newIn } : {}), ...cost() };
    if (limit) return { ...describePlanned(planned), outcome: 'known-limit', reason: limit.reason, ...failure };
    // The longest of the violations' exchanges (each is the check's log up to what it judged).
    const headed = violations.reduce<Violation | undefined>(
      (longest, v) => (v.exchanges.length > (longest?.exchanges.length ?? 0) ? v : longest),
      undefined,
    );
    const own = headed?.exchanges ?? [];
    const judgedExchange = own.at(-1);
    const exchanges = exchangesLeadingTo(ctx.exchanges, own);
    const replayed = { title: planned.id, report: failure.error, baseUrl: ctx.http.baseUrl };
    const delivery = headed && deliverySymptomOf(headed);
    // A delivery's fault shows in what the target sends, not in its last answer: only a receiver judges it.
    const answerShowsIt = headed && judgedExchange && !webhookEventOf(headed);
    const reproduction = delivery
      ? deliveryReproduction(exchanges, { ...replayed, symptom: delivery, headline: headline(headed) })
      : replay(exchanges, {
          ...replayed,
          ...(answerShowsIt ? { verdict: { symptom: symptomOf(headed, judgedExchange), headline: headline(headed) } } : {}),
        });
    return { ...describePlanned(planned), outcome: 'failed', ...failure, reproduction };
  }
}

/** The failure's first line ends with the versions that introduced what it breaks; what the target's version excuses is listed last. */
function withVersions(error: string, newIn: string, notInTarget: JudgedViolations['notInTarget'], judge: VersionJudge | undefined): string {
  const [first = '', ...rest] = error.split('\n');
  const excused = judge && notInTarget.length > 0 ? [`  not judged, not part of ${judge.target}: ${newInClause(notInTarget)}`] : [];
  return [newIn ? `${first} — ${newIn}` : first, ...rest, ...excused].join('\n');
}

export function describePlanned(planned: PlannedCheck) {
  return { id: planned.id, check: planned.check, subjects: planned.subjects, exercisesSuccess: planned.exercisesSuccess };
}
