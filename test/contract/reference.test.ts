// The kit against the reference server (stateful profile), plus the 429 probe against a second
// reference server whose quota is small enough to use up.
import { afterAll, describe, expect, it } from 'vitest';
import { runKit } from './kit/runner.ts';
import { defineContractSuite } from './kit/suite.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';

const targets: ReferenceTarget[] = [];

afterAll(async () => {
  await Promise.all(targets.map((target) => target.server.close()));
});

defineContractSuite({
  name: 'reference server (stateful)',
  profile: 'stateful',
  hasReadKey: true,
  skipRateProbe: 'provoked in its own test, on a reference server with a 30-request quota',
  target: async () => {
    const target = await startReferenceTarget();
    targets.push(target);
    return target.kit;
  },
});

describe('reference server with a small quota', () => {
  it('answers 429 with Retry-After, RateLimit headers and a problem once the quota is used up', async () => {
    const target = await startReferenceTarget(30);
    targets.push(target);
    const run = await runKit(target.kit, { only: (planned) => planned.check === 'rate-limit-429' });
    expect(run.results.map((r) => [r.check, r.outcome, r.error ?? r.reason])).toEqual([['rate-limit-429', 'passed', undefined]]);
  });
});
