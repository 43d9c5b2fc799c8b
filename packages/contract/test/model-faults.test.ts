// Faults nobody wrote a check for, caught by the model-based sequences: each is a few declarative
// lines over the reference server (fault-dsl.ts), and the default sequences must fail naming the
// rule it breaks. The run is the one check, not the whole kit.
import { afterAll, describe, expect, it } from 'vitest';
import type { KitOptions } from '../src/kit/context.ts';
import { runKit } from '../src/kit/runner.ts';
import { type Fault, startFaultProxy } from './fault-proxy.ts';
import { modelProofs } from './model-proofs.ts';
import { expectReplayed, madeFault } from './prove.ts';
import { targetPool } from './reference-target.ts';

// Each run waits mostly on its events: two at a time, each on a reference server it holds alone.
const targets = targetPool(2);
afterAll(() => targets.close());

/** model-sequences alone against a reference server behind `fault`: its result. */
const sequencesUnder = (fault: Fault, options: Partial<KitOptions> = {}) =>
  targets.use(async (reference) => {
    const proxy = await startFaultProxy(reference.server.url, fault);
    try {
      const run = await runKit(
        { ...reference.kit, baseUrl: proxy.url, ...options },
        { only: (planned) => planned.check === 'model-sequences' },
      );
      return run.results[0];
    } finally {
      await proxy.close();
    }
  });

/** The family's sample whose replay is also run on its own. */
const REPLAYED = 'If-Match compared weakly (a W/ tag accepted)';

describe.concurrent('faults the model-based sequences catch', () => {
  for (const { name, fault, rule } of modelProofs()) {
    it(`${name}: caught, naming rule ${rule}${name === REPLAYED ? '; its replay alone reproduces it' : ''}`, async () => {
      const result = await sequencesUnder(madeFault(fault), { eventTimeoutMs: 3_000 });
      expect(result?.outcome, result?.note).toBe('failed');
      expect(result?.error).toContain(`rule ${rule}`);
      if (name === REPLAYED) await expectReplayed(result!, madeFault(fault));
    }, 240_000);
  }
});

describe('a failure of model-sequences', () => {
  it('is shrunk to the shortest sequence that still breaks the rule, printed step by step', async () => {
    const weak = modelProofs().find((proof) => proof.rule === 'idempotency-and-concurrency.3')!;
    const error = (await sequencesUnder(madeFault(weak.fault)))!.error!;
    expect(error).toMatch(
      /shortest failing sequence \(2 steps, seed \d+, after \d+ shrinks\):\n +1\. create policies #\d+.*\n +2\. (replace|delete) policies\[0\].* with If-Match \(weak tag\)\n/,
    );
    expect(error).toMatch(/failed at: (replace|delete) policies\[0\].* with If-Match \(weak tag\)/);
    expect(error).toMatch(
      /last requests of the failing sequence:\n +POST \S+\/v1\/policies → 201\n +(PUT|DELETE) \S+\/v1\/policies\/\S+ → 2\d\d\n/,
    );
  }, 240_000);
});
