// The kit in another team's CI with a small quota and a small time budget, on the real clock: the
// plan, the sampling and the waits for whole quota windows of a run that lasts about two minutes
// (a scenario: `npm run bench:scenarios`; ci-quota.test.ts proves the planning and pacing rules).
import { describe, expect, it, onTestFinished } from 'vitest';
import { cli } from './ci-support.ts';
import { startReferenceTarget } from './reference-target.ts';

describe('fitting the quota, on the clock', () => {
  it('a run with a small quota and a small budget plans, samples, finishes within the budget and says what it sampled', async () => {
    // Two checks are planned as skipped: --rate-probe skip skips the 429 probe and the
    // failed-authentication counting that runs after it.
    // 300 in a 30 s window (the kit plans from the window the target states, a minute in
    // production). The plan's estimate is the quota's waits plus the requests at the latency it
    // measures, which a loaded machine triples; the waits must outweigh that spread. The full run
    // (about 1,400 requests) needs four more windows (over 120 s); the least a run can send (about
    // 810 requests at one case per check) two (about 70 s, under 100 s even at a loaded machine's
    // latency). Fitted to 120 s it samples down to what two more windows hold, and waits at most
    // those two. The quota grows with the checks: at 250 the least run needed three more windows,
    // and a loaded machine's estimate then went over the budget.
    const target = await startReferenceTarget(300, 0.001, { rateLimitWindowSeconds: 30 });
    onTestFinished(() => target.server.close());
    const run = await cli([
      '--base-url',
      target.server.url,
      '--api-key',
      target.kit.apiKey,
      '--read-key',
      target.kit.readKey!,
      '--time-budget',
      '120',
      '--rate-probe',
      'skip',
      '--compressed-retries',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const plan =
      /^plan: (\d+) checks \(2 planned as skipped\), about (\d+) requests .*quota 300 per 30 s.*within --time-budget 120 s; generated cases and repeats sampled 24 → (\d+) per check to fit$/m.exec(
        run.stdout,
      );
    expect(plan, run.stdout.slice(0, 800)).not.toBeNull();
    expect(Number(plan![2])).toBeLessThan(3 * 300);
    // The summary counts what the plan announced.
    expect(run.stdout).toContain(`${plan![1]} checks: `);
    expect(run.stdout).toMatch(
      /^sampled to fit --time-budget 120 s: \d+ checks ran with \d+(–\d+)? instead of 24 generated cases and repeats each/m,
    );
    expect((run.stdout.match(/waiting [\d.]+ s for the quota/g) ?? []).length).toBeLessThanOrEqual(2);
    expect(run.stdout).toMatch(/^contract kit finished in [\d.]+ s, within --time-budget 120 s \(/m);
    expect(run.stdout).toContain('gate PASSED');
  }, 200_000);
});
