// The kit fails an implementation that breaks one of the problems rules, naming the rule.

import { PROOFS } from './proofs/problems.ts';
import { PROOFS as RAW_PROOFS } from './proofs/raw-problems.ts';
import { proveRules } from './prove.ts';

proveRules('problems rules, each proven by a fault that breaks it', [...PROOFS, ...RAW_PROOFS], 'a deleted policy read as 410 Gone');
