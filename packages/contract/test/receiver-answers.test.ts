// receiver-answers on a target without the test-support route and without a trigger command: one
// finding.created carries the kit's own event to all its webhooks, as it does under a trigger
// command. (With the route, each gets
// its own raised event: the packed kit's README run in test/packages/contract.test.ts shows it.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKit } from '../src/kit/runner.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { withoutSimulator } from './legal-variations.ts';
import { type ReferenceTarget, startReferenceTarget } from './reference-target.ts';

let reference: ReferenceTarget;
beforeAll(async () => {
  reference = await startReferenceTarget();
});
afterAll(async () => {
  await reference?.server.close();
});

describe('receiver-answers without the test-support route', () => {
  it('falls back to one finding.created for all its webhooks and passes', async () => {
    const proxy = await startFaultProxy(reference.server.url, withoutSimulator);
    try {
      const run = await runKit(
        { ...reference.kit, baseUrl: proxy.url, skipRetryTiming: "the proofs' reference server compresses its retry schedule" },
        { only: (planned) => planned.check === 'receiver-answers' },
      );
      const [result] = run.results;
      expect(result?.outcome, result?.error).toBe('passed');
      expect(result?.note).toMatch(/^one finding\.created for all 11 webhooks; /);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
