// The checked rules no fault test proves yet, so proofs.test.ts fails when a rule becomes checked
// without a proof (add the proof, not an entry here) and when an entry here gets a proof (remove it).
import type { RuleId } from '../contract/kit/rules/catalogue.ts';

export const NOT_YET_PROVEN: readonly RuleId[] = [];
