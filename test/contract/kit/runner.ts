// Runs planned checks outside any test framework (the vitest suite and the fault tests both use
// it): each check's outcome, with known limits of a target applied openly rather than silently.
import { parseQuota, planBudget, type Quota } from './budget.ts';
import { foreignDeliveries } from './checks/event-run.ts';
import { createKitContext, type KitContext, type KitOptions } from './context.ts';
import { type Coverage, coverage, formatCoverage } from './coverage.ts';
import { describeForeign, type ForeignWebhook, foreignSubscribers } from './foreign.ts';
import { type PlannedCheck, planChecks } from './plan.ts';
import { exchangesLeadingTo, reproduction as replay } from './repro.ts';
import type { CheckResult, KnownLimit } from './results.ts';
import { traceFailure } from './rules/trace.ts';
import type { ContractModel } from './spec.ts';

export function plannedSkip(planned: PlannedCheck): CheckResult {
  return { ...describe(planned), outcome: 'skipped', reason: planned.skip!, ms: 0 };
}

export async function runCheck(ctx: KitContext, planned: PlannedCheck, knownLimits: KnownLimit[] = []): Promise<CheckResult> {
  if (planned.skip) return plannedSkip(planned);
  const limit = knownLimits.find((l) => l.check === planned.check && (l.subject === '*' || planned.subjects.includes(l.subject)));
  const started = performance.now();
  const before = ctx.http.stats();
  const firstExchange = ctx.exchanges.length;
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
    const result = await planned.run(ctx);
    if (result && typeof result === 'object' && 'skipped' in result) {
      return { ...describe(planned), outcome: 'skipped', reason: result.skipped, ...(result.gate ? { gate: result.gate } : {}), ...cost() };
    }
    const note = result && typeof result === 'object' ? { note: result.note } : {};
    if (limit && limit.subject !== '*') {
      return {
        ...describe(planned),
        outcome: 'failed',
        error: `${planned.id}: declared as a known limit (${limit.reason}) but it passes now; remove the known limit`,
        ...cost(),
      };
    }
    return { ...describe(planned), outcome: 'passed', ...note, ...cost() };
  } catch (error) {
    const message = traceFailure(
      planned.check,
      error instanceof Error ? (error.name === 'ContractViolation' ? error.message : `${planned.id}: ${messageOf(error)}`) : String(error),
    );
    if (limit) return { ...describe(planned), outcome: 'known-limit', reason: limit.reason, error: message, ...cost() };
    const exchanges = exchangesLeadingTo(ctx.exchanges, firstExchange);
    const reproduction = replay(exchanges, { title: planned.id, report: message, baseUrl: ctx.http.baseUrl });
    return { ...describe(planned), outcome: 'failed', error: message, reproduction, ...cost() };
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
  /** Of them, requests on the API key's quota. */
  keyRequests: number;
  waitedMs: number;
  /** Set when the run refused to start (--no-foreign-deliveries with foreign subscribers): why. */
  refused?: string;
  /** Lines said before the first check: the plan, and the webhooks of others the run will reach. */
  preamble: string[];
  foreign: { webhooks: ForeignWebhook[]; complete: boolean };
  /** Deliveries on the kit's webhooks of events it did not cause (another client's), ignored. */
  foreignDeliveries: number;
  /** What the time budget sampled, if anything. */
  sampled?: string;
}

export interface RunSelection {
  /** Restricts the run to checks whose id matches, so a fault test runs only what it needs. */
  only?: (planned: PlannedCheck) => boolean;
  knownLimits?: KnownLimit[];
  /** Called after each check, so a long run shows progress. */
  onResult?: (result: CheckResult, done: number, total: number) => void;
  /** Called with the plan and what the run will touch, before the first check. */
  onPreamble?: (lines: string[]) => void;
  /** Stops the run between checks (the check in flight is abandoned); cleanup still runs. */
  signal?: AbortSignal;
  /** --time-budget: sample generated cases and repeats down to finish within this many seconds. */
  timeBudgetSeconds?: number;
  /** --no-foreign-deliveries: refuse to run when the run's events would reach others' webhooks. */
  noForeignDeliveries?: boolean;
  /** Why the 429 probe is declared out of scope (--rate-probe skip); undefined: it must run. */
  skipRateProbe?: string;
}

const INTERRUPTED = 'not run: the run was interrupted before it';
/** What the plan expects the deliveries to take (the budget's margin covers slower ones, --event-timeout bounds them). */
const EXPECTED_DELIVERY_MS = 5_000;

/** Plans and runs the kit against a target without a test framework (the CLI and the fault tests use it). */
export async function runKit(options: KitOptions, selection: RunSelection = {}): Promise<KitRun> {
  const ctx = createKitContext(options);
  const plan = declareOutOfScope(
    planChecks(ctx.model, {
      profile: options.profile,
      hasReadKey: options.readKey !== undefined,
      ...(options.events === 'skip' ? { skipEvents: 'events skipped (--events skip): the target cannot reach the kit’s receiver' } : {}),
      ...(selection.skipRateProbe ? { skipRateProbe: selection.skipRateProbe } : {}),
      ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
      ...(options.skipRetryTiming ? { skipRetryTiming: options.skipRetryTiming } : {}),
    }),
    ctx.model,
    ctx.options.eventsOutOfScope,
  ).filter(selection.only ?? (() => true));

  const { quota, latencyMs: first } = await readQuota(ctx);
  const listed = performance.now();
  const foreign = await foreignSubscribers(ctx);
  // A first request pays for connections and warm-up: the faster of the two is the round trip.
  const latencyMs = Math.min(first, performance.now() - listed);
  const budget = planBudget(plan, {
    cases: ctx.options.cases,
    ...(selection.timeBudgetSeconds === undefined ? {} : { seconds: selection.timeBudgetSeconds }),
    ...(quota ? { quota } : {}),
    latencyMs,
    hasReadKey: options.readKey !== undefined,
    rateProbeMaxQuota: ctx.options.rateProbeMaxQuota,
    eventSeconds: plan.some((p) => !p.skip && p.subjects.every((s) => ctx.model.webhooks.some((w) => w.label === s)))
      ? Math.min(ctx.options.eventTimeoutMs, EXPECTED_DELIVERY_MS) / 1000
      : 0,
  });
  const preamble = [budget.line(), ...describeForeign(foreign)];
  selection.onPreamble?.(preamble);
  const base = { preamble, foreign, foreignDeliveries: 0 };
  if (selection.noForeignDeliveries && foreign.webhooks.length > 0) {
    const refused = `--no-foreign-deliveries: ${foreign.webhooks.length} enabled webhook${foreign.webhooks.length === 1 ? '' : 's'} the kit did not create would get this run's events (${foreign.webhooks.map((w) => w.id).join(', ')}); no check was run`;
    const report = coverage(ctx.model, []);
    return {
      results: [],
      coverage: report,
      table: formatCoverage(report),
      interrupted: false,
      leftovers: await ctx.cleanup(),
      refused,
      ...base,
      ...ctx.http.stats(),
    };
  }

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
      // Stopped between checks: the next one is not started.
      if (selection.signal?.aborted) {
        interrupted = true;
        break;
      }
      ctx.options.cases = budget.casesFor(planned);
      const result = await Promise.race([runCheck(ctx, planned, selection.knownLimits), aborted]);
      if (result === 'aborted') {
        interrupted = true;
        break;
      }
      budget.record(planned, result.quotaCost ?? 0);
      results.push(result);
      selection.onResult?.(result, results.length, plan.length);
    }
  } finally {
    leftovers = await ctx.cleanup();
  }
  if (interrupted) {
    const notRun = plan.slice(results.length);
    const gate = `the run was interrupted: ${notRun.length} check${notRun.length === 1 ? '' : 's'} did not run`;
    results.push(...notRun.map((planned): CheckResult => ({ ...describe(planned), outcome: 'skipped', reason: INTERRUPTED, gate, ms: 0 })));
  }
  const report = coverage(ctx.model, results);
  const sampled = budget.sampled();
  return {
    results,
    coverage: report,
    table: formatCoverage(report),
    interrupted,
    leftovers,
    ...base,
    foreignDeliveries: await foreignDeliveries(ctx),
    ...(sampled ? { sampled } : {}),
    ...ctx.http.stats(),
  };
}

/**
 * The API key's quota as the target states it on a cheap request (a list of one item), sent twice: the faster
 * round trip is the one the plan uses (the first pays for connecting and warming up).
 */
async function readQuota(ctx: KitContext): Promise<{ quota?: Quota; latencyMs: number }> {
  const list = ctx.model.operations.find((op) => op.kind === 'list');
  if (!list) return { latencyMs: 0 };
  let latencyMs = Infinity;
  let quota: Quota | undefined;
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    const exchange = await ctx.send(list, { auth: 'api', query: { limit: '1' } }).catch(() => undefined);
    latencyMs = Math.min(latencyMs, performance.now() - started);
    quota = (exchange && parseQuota(exchange.headers)) ?? quota;
  }
  return { ...(quota ? { quota } : {}), latencyMs };
}

/** Checks of webhooks whose events were declared out of scope (--events skip:<types>) are planned as skipped. */
function declareOutOfScope(plan: PlannedCheck[], model: ContractModel, types: string[]): PlannedCheck[] {
  if (types.length === 0) return plan;
  const declared = new Set(model.webhooks.filter((webhook) => types.includes(webhook.event)).map((webhook) => webhook.label));
  return plan.map((planned) =>
    planned.skip || !planned.subjects.every((subject) => declared.has(subject))
      ? planned
      : { ...planned, skip: `declared out of scope (--events skip:${types.join(',')})` },
  );
}
