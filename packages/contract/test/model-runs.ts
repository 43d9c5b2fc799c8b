// model-sequences alone against reference servers behind a fault: what model-faults.test.ts (a proof
// of each rule, in `npm test`) and model-faults.scenario.test.ts (the family's other members) run.
import { afterAll, expect, it } from 'vitest';
import type { KitOptions } from '../src/kit/context.ts';
import { runKit } from '../src/kit/runner.ts';
import { type Fault, startFaultProxy } from './fault-proxy.ts';
import { expectReplayed, madeFault, type RuleProof } from './prove.ts';
import { targetPool } from './reference-target.ts';

export type SequencesUnder = ReturnType<typeof sequencesRunner>;

/** A file's runner: two runs at a time, each on a reference server it holds alone (the runs wait mostly on events). */
export function sequencesRunner() {
  const targets = targetPool(2);
  afterAll(() => targets.close());
  return (fault: Fault, options: Partial<KitOptions> = {}) =>
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
}

/** One test per proof: the default sequences fail naming its rule; `replayed`'s replay alone reproduces it. */
export function proveWithSequences(proofs: readonly RuleProof[], sequencesUnder: SequencesUnder, replayed?: string): void {
  for (const { name, fault, rule } of proofs) {
    it(`${name}: caught, naming rule ${rule}${name === replayed ? '; its replay alone reproduces it' : ''}`, async () => {
      const result = await sequencesUnder(madeFault(fault), { eventTimeoutMs: 3_000 });
      expect(result?.outcome, result?.note).toBe('failed');
      expect(result?.error).toContain(`rule ${rule}`);
      if (name === replayed) await expectReplayed(result!, madeFault(fault));
    }, 240_000);
  }
}

/** The first proof of each rule, proven in `npm test`; the others, the scenario's. */
export function firstOfEachRule(proofs: readonly RuleProof[]): { first: RuleProof[]; others: RuleProof[] } {
  const seen = new Set<string>();
  const first: RuleProof[] = [];
  const others: RuleProof[] = [];
  for (const proof of proofs) {
    (seen.has(proof.rule) ? others : first).push(proof);
    seen.add(proof.rule);
  }
  return { first, others };
}
