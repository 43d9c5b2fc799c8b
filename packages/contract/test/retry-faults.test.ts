// Which receiver answers are retried, as a family: for every client error the document leaves to
// "anything else is retried", a service that takes it as final fails delivery-retry naming the
// rule, on the run whose seed makes the kit answer that status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRIED_CLIENT_ERRORS } from '../src/kit/checks/shared/attempts.ts';
import { runKit } from '../src/kit/runner.ts';
import { receiverAnswer } from './fault-dsl.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { type ReferenceTarget, startReferenceTarget } from './reference-target.ts';

let reference: ReferenceTarget;
beforeAll(async () => {
  reference = await startReferenceTarget();
});
afterAll(async () => {
  await reference?.server.close();
});

describe.concurrent('a service that does not retry a client error', () => {
  RETRIED_CLIENT_ERRORS.forEach((status, seed) => {
    it(`${status} taken as final: delivery-retry names rule delivery-and-retries.4`, async () => {
      const proxy = await startFaultProxy(
        reference.server.url,
        receiverAnswer((answer) => (answer.status === status ? { status: 204, headers: {} } : answer)),
      );
      try {
        const run = await runKit(
          { ...reference.kit, baseUrl: proxy.url, seed, eventTimeoutMs: 3_000, skipRetryTiming: 'compressed schedule' },
          { only: (planned) => planned.check === 'delivery-retry' },
        );
        expect(run.results.map((r) => r.outcome)).toEqual(['failed']);
        expect(run.results[0]!.error).toContain(`rule delivery-and-retries.4: a delivery answered ${status} was not retried`);
      } finally {
        await proxy.close();
      }
    }, 30_000);
  });
});
