// The kit fails an implementation that breaks one of the resources rules, naming the rule.

import { PROOFS } from './proofs/resources.ts';
import { proveRules } from './prove.ts';

proveRules('resources rules, each proven by a fault that breaks it', PROOFS, 'a policy an in-progress finding references deleted');
