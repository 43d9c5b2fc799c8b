// The kit fails an implementation that breaks a rule only in a cell of the behaviour space the
// axes' checks reach (a boundary, a media type, a read after a change, an error answer, the clock,
// a retry's answer), naming the rule.

import { PROOFS } from './proofs/axes.ts';
import { proveRules } from './prove.ts';

proveRules(
  'rules broken only in cells of the behaviour space, each proven by a fault',
  PROOFS,
  'application/json with a charset refused with 415',
);
