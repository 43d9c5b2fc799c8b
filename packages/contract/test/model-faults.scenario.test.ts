// The model-based sequences against the rest of model-proofs.ts: every fault after the first of its
// rule (the first is model-faults.test.ts's, in `npm test`). Each answers another field of the same
// create or replace answer, a cell of the rule's behaviour space the gate's proof does not visit.
import { describe } from 'vitest';
import { modelProofs } from './model-proofs.ts';
import { firstOfEachRule, proveWithSequences, sequencesRunner } from './model-runs.ts';

const sequencesUnder = sequencesRunner();
describe.concurrent('faults the model-based sequences catch, beyond the first of each rule', () => {
  proveWithSequences(firstOfEachRule(modelProofs()).others, sequencesUnder);
});
