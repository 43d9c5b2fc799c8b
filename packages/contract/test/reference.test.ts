// The kit against the reference server (stateful profile), plus the 429 probe against a second
// reference server whose quota is small enough to use up, and the retry waits against a third that
// keeps the documented retry schedule (the first one compresses it, so its retries come at once);
// the three side by side.
import { afterAll, describe, expect, it } from 'vitest';
import { runKit } from '../src/kit/runner.ts';
import { type ReferenceTarget, startReferenceTarget } from './reference-target.ts';
import { defineContractSuite } from './suite.ts';

const targets: ReferenceTarget[] = [];

afterAll(async () => {
  await Promise.all(targets.map((target) => target.server.close()));
});

defineContractSuite({
  name: 'reference server (stateful)',
  profile: 'stateful',
  hasReadKey: true,
  skipRateProbe: 'provoked in its own test, on a reference server with a 30-request quota',
  corsOrigin: 'http://localhost:5173',
  skipRetryTiming: 'judged in its own test, on a reference server with the documented retry schedule',
  target: async () => {
    const target = await startReferenceTarget();
    targets.push(target);
    return target.kit;
  },
});

describe.concurrent('reference server with a small quota', () => {
  it('answers 429 with Retry-After, RateLimit headers and a problem once the quota is used up', async () => {
    const target = await startReferenceTarget(30);
    targets.push(target);
    const run = await runKit(target.kit, { only: (planned) => planned.check === 'rate-limit-429' });
    expect(run.results.map((r) => [r.check, r.outcome, r.error ?? r.reason])).toEqual([['rate-limit-429', 'passed', undefined]]);
  });
});

describe.concurrent('reference server with the documented retry schedule', () => {
  it('retries a failed delivery after about 5 s (±20 %) and honours a longer Retry-After', async () => {
    const target = await startReferenceTarget(undefined, 1);
    targets.push(target);
    const run = await runKit(target.kit, { only: (planned) => planned.check === 'delivery-retry' });
    expect(run.results.map((r) => [r.check, r.outcome, r.error ?? r.reason])).toEqual([['delivery-retry', 'passed', undefined]]);
    expect(run.results[0]!.note).toMatch(/first retry after \d+\.\d s; retry after Retry-After: \d+ came after \d+\.\d s/);
  }, 60_000);
});
