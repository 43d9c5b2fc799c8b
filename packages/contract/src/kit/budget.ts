// Fitting a run into the target's quota: the kit reads the key's quota (RateLimit-Policy) before
// the first check, estimates what each planned check costs, prints the plan (requests, quota,
// expected duration), and with a time budget samples the generated cases and repeats down — the
// same number for every check that takes them, reproducible with the seed — so that the run fits.
// Every check still runs at least once. Costs come from the measured profile (cost-profile.ts) or,
// for an instance it does not know, the check's definition; after each check its measured cost
// replaces the estimate and the rest of the run is planned again. The cases each check gets are
// handed to it as an argument (`casesFor`), never set on the shared context.
import { PROBE_WAVE } from './check.ts';
import { COST_PROFILE } from './cost-profile.ts';
import type { PlannedCheck } from './plan.ts';
import { definitionOf } from './registry.ts';

/** The key's quota as the target states it: `q` requests per `w` seconds, `r` left for `t` seconds. */
export interface Quota {
  limit: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

/** `RateLimit-Policy: "name"; q=120; w=60` with `RateLimit: "name"; r=119; t=60` (IETF draft 8); undefined without q. */
export function parseQuota(headers: Headers): Quota | undefined {
  const policy = headers.get('ratelimit-policy') ?? '';
  const state = headers.get('ratelimit') ?? '';
  const param = (text: string, name: string) => {
    const match = new RegExp(`(?:^|;)\\s*${name}=(\\d+)`).exec(text);
    return match ? Number(match[1]) : undefined;
  };
  const limit = param(policy, 'q');
  if (limit === undefined) return undefined;
  const windowSeconds = param(policy, 'w') ?? 60;
  return { limit, windowSeconds, remaining: param(state, 'r') ?? limit, resetSeconds: param(state, 't') ?? windowSeconds };
}

/** Seconds spent waiting for the quota to send `cost` requests: none while `r` lasts, then whole windows. */
export function quotaWaitSeconds(cost: number, quota: Quota): number {
  if (cost <= quota.remaining) return 0;
  return quota.resetSeconds + (Math.ceil((cost - quota.remaining) / quota.limit) - 1) * quota.windowSeconds;
}

/** Of the budget, what the plan may use: the rest absorbs slower answers and deliveries. */
const BUDGET_SHARE = 0.85;
/**
 * Estimates are planned this much larger: a quota is spent in whole windows, so a run that
 * overshoots its estimate by a few requests waits a whole window more.
 */
const COST_MARGIN = 1.1;

export interface BudgetOptions {
  /** The run's --cases: generated cases and repeats per check at full size. */
  cases: number;
  /** --time-budget, in seconds; without it the plan is only announced. */
  seconds?: number;
  quota?: Quota;
  /** One request's round trip, measured on the first request. */
  latencyMs: number;
  hasReadKey: boolean;
  /** The 429 probe's limit (--rate-probe-max). */
  rateProbeMaxQuota: number;
  /** Time the event checks may spend waiting for deliveries (--event-timeout), when they run. */
  eventSeconds: number;
}

export interface BudgetPlan {
  /** Generated cases and repeats each remaining check gets. */
  casesFor(planned: PlannedCheck): number;
  /** After each check: its measured cost replaces the estimate, and the rest is planned again. */
  record(planned: PlannedCheck, quotaCost: number): void;
  /** One line: requests planned, quota, expected duration (and the sampling, if any). */
  line(): string;
  /** What was sampled and by how much; undefined when nothing was. */
  sampled(): string | undefined;
  /** Planned cost (quota requests) and expected seconds of the whole run, as first planned. */
  planned: { cost: number; seconds: number; cases: number };
}

export function planBudget(plan: PlannedCheck[], options: BudgetOptions): BudgetPlan {
  const runnable = plan.filter((p) => !p.skip);
  const usesQuota = (planned: PlannedCheck) => definitionOf(planned.check).cost === 'quota';
  const estimate = (planned: PlannedCheck, cases: number): number => {
    if (usesQuota(planned)) {
      // Its cost is the quota itself: q + 1 requests, on the read key's quota when there is one.
      const quota = options.quota?.limit;
      if (quota === undefined || quota > options.rateProbeMaxQuota || options.hasReadKey) return 1;
      return quota + 1;
    }
    const [fixed, perCase] = profiled(planned);
    return Math.max(0, Math.round(fixed + perCase * cases));
  };
  const probeSeconds = (): number => {
    const quota = options.quota?.limit ?? Infinity;
    const probing = runnable.some(usesQuota) && quota <= options.rateProbeMaxQuota;
    // The probe sends PROBE_WAVE requests at a time.
    return probing ? ((quota + 1) * options.latencyMs) / PROBE_WAVE / 1000 : 0;
  };
  const seconds = (cost: number): number =>
    (options.quota ? quotaWaitSeconds(cost, options.quota) : 0) + (cost * options.latencyMs) / 1000 + options.eventSeconds + probeSeconds();

  const measured = new Map<string, number>();
  const done = new Set<string>();
  let used = 0;
  const costAt = (checks: PlannedCheck[], cases: number) => checks.reduce((sum, p) => sum + (measured.get(p.id) ?? estimate(p, cases)), 0);
  /** The most cases per check (1 … --cases) whose whole run still fits the budget. */
  const fit = (): number => {
    if (options.seconds === undefined || !options.quota) return options.cases;
    const rest = runnable.filter((p) => !done.has(p.id));
    for (let cases = options.cases; cases > 1; cases--) {
      if (seconds(used + costAt(rest, cases) * COST_MARGIN) <= options.seconds * BUDGET_SHARE) return cases;
    }
    return 1;
  };
  let current = fit();
  const first = { cases: current, cost: costAt(runnable, current), seconds: seconds(costAt(runnable, current)) };
  const given = new Map<PlannedCheck, number>();

  return {
    planned: first,
    casesFor(planned) {
      given.set(planned, current);
      return current;
    },
    record(planned, quotaCost) {
      done.add(planned.id);
      measured.set(planned.id, quotaCost);
      used += quotaCost;
      current = Math.min(current, fit());
    },
    line() {
      const quota = options.quota
        ? `quota ${options.quota.limit} per ${options.quota.windowSeconds} s (RateLimit-Policy; ${options.quota.remaining} left, resets in ${options.quota.resetSeconds} s)`
        : 'no RateLimit-Policy (no quota assumed)';
      const fits =
        options.seconds === undefined
          ? ''
          : first.seconds <= options.seconds
            ? `, within --time-budget ${options.seconds} s`
            : `, OVER --time-budget ${options.seconds} s even with 1 case per check`;
      const sampling =
        first.cases < options.cases ? `; generated cases and repeats sampled ${options.cases} → ${first.cases} per check to fit` : '';
      const skipped = plan.length - runnable.length;
      const count = `${plan.length} checks${skipped > 0 ? ` (${skipped} planned as skipped)` : ''}`;
      return `plan: ${count}, about ${first.cost} requests on the API key's quota (deletes at cleanup included), ${quota}, expected about ${formatSeconds(first.seconds)}${fits}${sampling}`;
    },
    sampled() {
      const scaled = [...given].filter(([planned, cases]) => cases < options.cases && !usesQuota(planned) && profiled(planned)[1] > 0);
      if (scaled.length === 0) return undefined;
      const values = scaled.map(([, cases]) => cases);
      const range = Math.min(...values) === Math.max(...values) ? `${values[0]}` : `${Math.min(...values)}–${Math.max(...values)}`;
      return `sampled to fit --time-budget ${options.seconds} s: ${scaled.length} checks ran with ${range} instead of ${options.cases} generated cases and repeats each (seeded: the same --seed samples the same cases); every check ran at least once`;
    },
  };
}

/** A planned check's cost as [fixed, per case]: measured for its instance, or its definition's estimate. */
function profiled(planned: PlannedCheck): readonly [number, number] {
  const measured = COST_PROFILE[planned.id];
  if (measured) return measured;
  const { cost } = definitionOf(planned.check);
  return cost === 'quota' ? [1, 0] : [cost.fixed, cost.perCase];
}

export function formatSeconds(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
