// A run of the kit, opened once and stepped through check by check: the plan (with what the run
// lacks planned as skipped), the key's quota and the time budget, the webhooks of others it will
// reach, each check with the generated cases the budget gives it and the exchanges it causes, and
// at the end cleanup and the coverage report. The CLI's loop and the vitest suite both drive it.
import { loadDocument } from 'secmon-api/src/document';
import { type AxisCoverage, exercisedCells } from './axes/index.ts';
import { type BudgetPlan, parseQuota, planBudget, type Quota } from './budget.ts';
import type { PlanOptions } from './check.ts';
import { createKitContext, type KitContext, type KitOptions } from './context.ts';
import { type Coverage, coverage, formatCoverage } from './coverage.ts';
import { describeForeign, type ForeignWebhook, foreignSubscribers } from './foreign.ts';
import type { Exchange } from './http.ts';
import { type PlannedCheck, planChecks } from './plan.ts';
import type { CheckResult, KnownLimit } from './results.ts';
import { describePlanned, runCheck } from './run-check.ts';
import type { ContractModel } from './spec.ts';
import { versionJudge, versionScope } from './version-judge.ts';

export interface KitRun {
  results: CheckResult[];
  coverage: Coverage;
  table: string;
  /** The behaviour space of the document and which cells this run exercised (`--coverage`). */
  axes: AxisCoverage;
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
  /** --contract-version: the version of the contract the target implements (default: the newest the kit carries). */
  contractVersion?: string;
}

export interface KitSession {
  plan: PlannedCheck[];
  preamble: string[];
  /** Set when the run refuses to start; `finish` then only cleans up. */
  refused?: string;
  /** The results so far, in the order the checks ran. */
  results: CheckResult[];
  /** Runs one check of the plan and records its result. */
  run(planned: PlannedCheck): Promise<CheckResult>;
  /** Cleans up and reports; checks of the plan that did not run are reported as not run when `interrupted`. */
  finish(interrupted?: boolean): Promise<KitRun>;
}

const INTERRUPTED = 'not run: the run was interrupted before it';
/** What the plan expects the deliveries to take (the budget's margin covers slower ones, --event-timeout bounds them). */
const EXPECTED_DELIVERY_MS = 5_000;

/** The plan options a run's options and selection make. */
export function planOptionsOf(options: KitOptions, selection: Pick<RunSelection, 'skipRateProbe'> = {}): PlanOptions {
  return {
    profile: options.profile,
    hasReadKey: options.readKey !== undefined,
    ...(options.events === 'skip' ? { skipEvents: 'events skipped (--events skip): the target cannot reach the kit’s receiver' } : {}),
    ...(selection.skipRateProbe ? { skipRateProbe: selection.skipRateProbe } : {}),
    ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
    ...(options.skipRetryTiming ? { skipRetryTiming: options.skipRetryTiming } : {}),
  };
}

/** The budget of a run's plan against a target with `quota` (if it states one) that answers in `latencyMs`. */
export function budgetOf(
  ctx: KitContext,
  plan: PlannedCheck[],
  target: { quota: Quota | undefined; latencyMs: number; timeBudgetSeconds: number | undefined },
): BudgetPlan {
  return planBudget(plan, {
    cases: ctx.options.cases,
    ...(target.timeBudgetSeconds === undefined ? {} : { seconds: target.timeBudgetSeconds }),
    ...(target.quota ? { quota: target.quota } : {}),
    latencyMs: target.latencyMs,
    hasReadKey: ctx.options.readKey !== undefined,
    rateProbeMaxQuota: ctx.options.rateProbeMaxQuota,
    eventSeconds: plan.some((p) => !p.skip && p.subjects.every((s) => ctx.model.webhooks.some((w) => w.label === s)))
      ? Math.min(ctx.options.eventTimeoutMs, EXPECTED_DELIVERY_MS) / 1000
      : 0,
  });
}

/** Plans a run against a target, reads its quota and who else its events reach, and starts the checks' preparations. */
export async function openKit(options: KitOptions, selection: RunSelection = {}): Promise<KitSession> {
  const ctx = createKitContext(options);
  const judge = versionJudge(options.document ?? loadDocument(), selection.contractVersion);
  const plan = declareOutOfScope(planChecks(ctx.model, planOptionsOf(options, selection)), ctx.model, ctx.options.eventsOutOfScope).filter(
    selection.only ?? (() => true),
  );
  const { quota, latencyMs: first } = await readQuota(ctx);
  const listed = performance.now();
  const foreign = await foreignSubscribers(ctx);
  // A first request pays for connections and warm-up: the faster of the two is the round trip.
  const latencyMs = Math.min(first, performance.now() - listed);
  const budget = budgetOf(ctx, plan, { quota, latencyMs, timeBudgetSeconds: selection.timeBudgetSeconds });
  const preamble = [budget.line(), ...describeForeign(foreign)];
  selection.onPreamble?.(preamble);
  const refused =
    selection.noForeignDeliveries && foreign.webhooks.length > 0
      ? `--no-foreign-deliveries: ${foreign.webhooks.length} enabled webhook${foreign.webhooks.length === 1 ? '' : 's'} the kit did not create would get this run's events (${foreign.webhooks.map((w) => w.id).join(', ')}); no check was run`
      : undefined;

  const results: CheckResult[] = [];
  const logs = new Map(plan.map((planned) => [planned.id, [] as Exchange[]]));
  if (!refused)
    for (const planned of plan) if (!planned.skip && planned.prepare) ctx.recording(logs.get(planned.id)!, () => planned.prepare!(ctx));

  async function run(planned: PlannedCheck): Promise<CheckResult> {
    const result = await ctx.scoped(() =>
      runCheck(ctx, planned, {
        knownLimits: selection.knownLimits,
        log: logs.get(planned.id),
        cases: budget.casesFor(planned),
        judge,
      }),
    );
    budget.record(planned, result.quotaCost ?? 0);
    results.push(result);
    return result;
  }

  async function finish(interrupted = false): Promise<KitRun> {
    // Read before cleanup, whose deletes exercise nothing a check judged.
    const deliveries = ctx.options.events === 'check' && !refused ? (await ctx.receiver()).deliveries : [];
    const axes = exercisedCells(ctx.model, { exchanges: [...ctx.exchanges], logs, deliveries: [...deliveries], results });
    const leftovers = await ctx.cleanup();
    const ran = new Set(results.map((result) => result.id));
    const notRun = refused ? [] : plan.filter((planned) => !ran.has(planned.id));
    if (interrupted && notRun.length > 0) {
      const gate = `the run was interrupted: ${notRun.length} check${notRun.length === 1 ? '' : 's'} did not run`;
      results.push(
        ...notRun.map((planned): CheckResult => ({ ...describePlanned(planned), outcome: 'skipped', reason: INTERRUPTED, gate, ms: 0 })),
      );
    }
    const report = coverage(ctx.model, results, versionScope(judge));
    const sampled = budget.sampled();
    return {
      results,
      coverage: report,
      table: formatCoverage(report),
      axes,
      interrupted,
      leftovers,
      preamble,
      foreign,
      foreignDeliveries: refused ? 0 : await ctx.foreignDeliveries(),
      ...(refused ? { refused } : {}),
      ...(sampled ? { sampled } : {}),
      ...ctx.http.stats(),
    };
  }

  return { plan, preamble, ...(refused ? { refused } : {}), results, run, finish };
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
