// Faults nobody wrote a check for, caught by the model-based sequences: each is a few declarative
// lines over the reference server (fault-dsl.ts), and the default sequences must fail naming the
// rule it breaks. The run is the one check, not the whole kit. Here the first fault of each rule
// (model-proofs.ts), so every rule model-sequences judges stays proven; the family's other members
// (another field of the same answer) run in model-faults.scenario.test.ts.
import { describe, expect, it } from 'vitest';
import { modelProofs } from './model-proofs.ts';
import { firstOfEachRule, proveWithSequences, sequencesRunner } from './model-runs.ts';
import { madeFault } from './prove.ts';

/** The family's sample whose replay is also run on its own. */
const REPLAYED = 'If-Match compared weakly (a W/ tag accepted)';

const sequencesUnder = sequencesRunner();
describe.concurrent('faults the model-based sequences catch, one for each rule', () => {
  proveWithSequences(firstOfEachRule(modelProofs()).first, sequencesUnder, REPLAYED);
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
