// The checked rules no fault test proves yet. Every other checked rule is proven: a fault that
// breaks exactly the rule, run against the one check that judges it, fails naming the rule (the
// proof suites under packages/contract/test/, which packages/contract/test/proofs.test.ts holds to this list both ways).
// `--rules` shows each checked rule as proven or not from it. Add a proof, never an entry here.
import type { RuleId } from './catalogue.ts';

export const NOT_YET_PROVEN: readonly RuleId[] = [];
