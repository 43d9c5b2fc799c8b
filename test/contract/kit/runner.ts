// Runs planned checks outside any test framework (the vitest suite and the fault tests both use
// it): each check's outcome, with known limits of a target applied openly rather than silently.
import { createKitContext, type KitContext, type KitOptions } from './context.ts';
import { coverage, formatCoverage, type Coverage } from './coverage.ts';
import { planChecks, type PlannedCheck } from './plan.ts';
import { traceFailure } from './rules/trace.ts';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'known-limit';

export interface CheckResult {
  id: string;
  check: string;
  subjects: string[];
  exercisesSuccess: boolean;
  outcome: Outcome;
  /** Why it was skipped, or which known limit it hit. */
  reason?: string;
  /** The failure report (operation, check, request, what broke). */
  error?: string;
  /** Something a passed check noticed that is allowed but worth saying (a retried delivery). */
  note?: string;
  ms: number;
}

/**
 * A check a target is known not to pass, declared by whoever runs the kit (for example the Prism
 * mock's limits). A matching failure is reported as a known limit instead of a failure; a check
 * declared for a named operation that passes is reported as failed, so stale entries get removed.
 */
export interface KnownLimit {
  check: string;
  /** An operation or webhook label, or '*' for every one. */
  subject: string;
  reason: string;
}

export function plannedSkip(planned: PlannedCheck): CheckResult {
  return { ...describe(planned), outcome: 'skipped', reason: planned.skip!, ms: 0 };
}

export async function runCheck(ctx: KitContext, planned: PlannedCheck, knownLimits: KnownLimit[] = []): Promise<CheckResult> {
  if (planned.skip) return plannedSkip(planned);
  const limit = knownLimits.find((l) => l.check === planned.check && (l.subject === '*' || planned.subjects.includes(l.subject)));
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const result = await planned.run(ctx);
    if (result && typeof result === 'object' && 'skipped' in result) return { ...describe(planned), outcome: 'skipped', reason: result.skipped, ms: ms() };
    const note = result && typeof result === 'object' ? { note: result.note } : {};
    if (limit && limit.subject !== '*') {
      return {
        ...describe(planned),
        outcome: 'failed',
        error: `${planned.id}: declared as a known limit (${limit.reason}) but it passes now; remove the known limit`,
        ms: ms(),
      };
    }
    return { ...describe(planned), outcome: 'passed', ...note, ms: ms() };
  } catch (error) {
    const message = traceFailure(planned.check, error instanceof Error ? (error.name === 'ContractViolation' ? error.message : `${planned.id}: ${messageOf(error)}`) : String(error));
    if (limit) return { ...describe(planned), outcome: 'known-limit', reason: limit.reason, error: message, ms: ms() };
    return { ...describe(planned), outcome: 'failed', error: message, ms: ms() };
  }
}

/** An error as one line per cause, without stack frames: they would point into the kit, not the target. */
function messageOf(error: Error): string {
  const cause = error.cause instanceof Error ? `\n  caused by: ${messageOf(error.cause)}` : '';
  return `${error.message}${cause}`;
}

function describe(planned: PlannedCheck) {
  return { id: planned.id, check: planned.check, subjects: planned.subjects, exercisesSuccess: planned.exercisesSuccess };
}

export interface KitRun {
  results: CheckResult[];
  coverage: Coverage;
  table: string;
  /** True when the run was stopped (signal) before every check ran. */
  interrupted: boolean;
  /** Resources the kit created and could not delete (the target answered neither 2xx nor 404). */
  leftovers: string[];
  requests: number;
  waitedMs: number;
}

/**
 * Plans and runs the kit against a target without a test framework (the fault tests use it).
 * `only` restricts the run to checks whose id matches, so a fault test runs only what it needs.
 */
export async function runKit(
  options: KitOptions,
  selection: {
    only?: (planned: PlannedCheck) => boolean;
    knownLimits?: KnownLimit[];
    /** Called after each check, so a long run shows progress. */
    onResult?: (result: CheckResult, done: number, total: number) => void;
    /** Stops the run between checks (the check in flight is abandoned); cleanup still runs. */
    signal?: AbortSignal;
  } = {},
): Promise<KitRun> {
  const ctx = createKitContext(options);
  const plan = planChecks(ctx.model, {
    profile: options.profile,
    hasReadKey: options.readKey !== undefined,
    ...(options.events === 'skip' ? { skipEvents: 'events skipped (--events skip): the target cannot reach the kit’s receiver' } : {}),
    ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
    ...(options.skipRetryTiming ? { skipRetryTiming: options.skipRetryTiming } : {}),
  }).filter(selection.only ?? (() => true));
  const results: CheckResult[] = [];
  const aborted = new Promise<'aborted'>((resolve) => {
    if (selection.signal?.aborted) resolve('aborted');
    selection.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  let interrupted = false;
  let leftovers: string[];
  for (const planned of plan) if (!planned.skip) planned.prepare?.(ctx);
  try {
    for (const planned of plan) {
      const result = await Promise.race([runCheck(ctx, planned, selection.knownLimits), aborted]);
      if (result === 'aborted') {
        interrupted = true;
        break;
      }
      results.push(result);
      selection.onResult?.(result, results.length, plan.length);
    }
  } finally {
    leftovers = await ctx.cleanup();
  }
  const report = coverage(ctx.model, results);
  return { results, coverage: report, table: formatCoverage(report), interrupted, leftovers, ...ctx.http.stats() };
}
