// The kit in another team's CI, fitted to the target's quota: a run planned from RateLimit-Policy
// and RateLimit, sampled to a time budget, paced per key, and the time spent waiting for the quota
// reported apart from the checks' own time.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseQuota, planBudget, quotaWaitSeconds } from '../src/kit/budget.ts';
import { createKitContext } from '../src/kit/context.ts';
import { junitReport } from '../src/kit/junit.ts';
import { planChecks } from '../src/kit/plan.ts';
import { runCheck } from '../src/kit/run-check.ts';

describe('fitting the quota', () => {
  it('reads RateLimit-Policy and RateLimit, and waits whole windows once the remaining requests are spent', () => {
    const headers = new Headers({ 'ratelimit-policy': '"120-in-1min"; q=120; w=60', ratelimit: '"120-in-1min"; r=100; t=42' });
    const quota = parseQuota(headers)!;
    expect(quota).toEqual({ limit: 120, windowSeconds: 60, remaining: 100, resetSeconds: 42 });
    expect(quotaWaitSeconds(100, quota)).toBe(0);
    expect(quotaWaitSeconds(101, quota)).toBe(42);
    expect(quotaWaitSeconds(220, quota)).toBe(42);
    expect(quotaWaitSeconds(221, quota)).toBe(102);
    expect(parseQuota(new Headers())).toBeUndefined();
  });

  it('samples every check down to the same number of cases that fits the budget, and never below one', () => {
    const ctx = createKitContext({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', readKey: 'r', profile: 'stateful' });
    // A production-mode target at 120 requests a minute, which cannot reach the kit's receiver.
    const plan = planChecks(ctx.model, { profile: 'stateful', hasReadKey: true, skipEvents: 'events skipped' });
    const quota = { limit: 120, windowSeconds: 60, remaining: 119, resetSeconds: 60 };
    const base = { cases: 24, quota, latencyMs: 5, hasReadKey: true, rateProbeMaxQuota: 300, eventSeconds: 0 };
    const unbudgeted = planBudget(plan, base);
    expect(unbudgeted.planned.cases).toBe(24);
    expect(unbudgeted.line()).toMatch(
      /^plan: \d+ checks \(\d+ planned as skipped\), about \d+ requests .*quota 120 per 60 s.*expected about \d+ min \d+ s$/,
    );
    // The plan counts what the summary will: every planned check, the skipped ones included.
    const skipped = plan.filter((p) => p.skip).length;
    expect(unbudgeted.line()).toContain(`plan: ${plan.length} checks (${skipped} planned as skipped),`);
    const fitted = planBudget(plan, { ...base, seconds: 420 });
    expect(fitted.planned.cases).toBeLessThan(24);
    expect(fitted.planned.seconds).toBeLessThanOrEqual(360);
    expect(fitted.line()).toContain(`sampled 24 → ${fitted.planned.cases} per check`);
    // One that reaches it (every check runs) fits 420 s: the measured costs of the whole kit at
    // one case per check stay within two more windows.
    const everything = planBudget(planChecks(ctx.model, { profile: 'stateful', hasReadKey: true }), {
      ...base,
      seconds: 420,
      eventSeconds: 5,
    });
    expect(everything.line()).toContain('within --time-budget 420 s');
    const impossible = planBudget(plan, { ...base, seconds: 10 });
    expect(impossible.planned.cases).toBe(1);
    expect(impossible.line()).toContain('OVER --time-budget 10 s');
    // Repeats of a checked run are the same: the planned cases and the seeded samples.
    expect(planBudget(plan, { ...base, seconds: 420 }).planned).toEqual(fitted.planned);
  });

  it('reports the time a check waited for the quota beside its own time, in the result and in JUnit', async () => {
    let calls = 0;
    const stub = createServer((_req, res) => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json', ratelimit: `"stub"; r=${calls === 1 ? 0 : 5}; t=1` }).end('{}');
    });
    stub.listen(0, '127.0.0.1');
    await once(stub, 'listening');
    onTestFinished(() => void stub.close());
    const ctx = createKitContext({
      baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      apiKey: 'k',
      profile: 'stateful',
      events: 'skip',
    });
    const result = await runCheck(
      ctx,
      {
        id: 'stub › success-response',
        check: 'success-response',
        subjects: ['stub'],
        exercisesSuccess: true,
        run: async (c) => {
          await c.http.send({ method: 'GET', path: '/' });
          await c.http.send({ method: 'GET', path: '/' });
        },
      },
      { cases: 1 },
    );
    expect(result.outcome).toBe('passed');
    expect(result.waitedMs).toBeGreaterThanOrEqual(900);
    expect(result.ms).toBeLessThan(result.waitedMs!);
    expect(result.requests).toBe(2);
    const xml = junitReport('stub', [result], 2, result.waitedMs);
    expect(xml).toContain(`time="${(result.ms / 1000).toFixed(3)}"`);
    expect(xml).toMatch(/<system-out>waited 1\.\d s for the target&apos;s quota \(not in time\)<\/system-out>/);
    expect(xml).toMatch(/<property name="quota-wait-seconds" value="\d\.\d{3}"\/>/);
  });

  it('paces each key by its own quota: a read key used up (the 429 probe) does not hold the API key back', async () => {
    const stub = createServer((req, res) => {
      const read = req.headers.authorization === 'Bearer r';
      res.writeHead(200, { 'content-type': 'application/json', ratelimit: `"stub"; r=${read ? 0 : 50}; t=30` }).end('{}');
    });
    stub.listen(0, '127.0.0.1');
    await once(stub, 'listening');
    onTestFinished(() => void stub.close());
    const waits: string[] = [];
    const ctx = createKitContext({
      baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      apiKey: 'k',
      readKey: 'r',
      profile: 'stateful',
      events: 'skip',
      onWait: (_ms, why) => waits.push(why),
    });
    await ctx.http.send({ method: 'GET', path: '/', auth: 'read', acceptRateLimit: true });
    await ctx.http.send({ method: 'GET', path: '/', auth: 'api' });
    expect(waits).toEqual([]);
    expect(ctx.http.stats()).toMatchObject({ requests: 2, keyRequests: 1, waitedMs: 0 });
  });
});
