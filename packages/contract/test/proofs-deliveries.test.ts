// The kit fails an implementation that breaks one of the deliveries rules, naming the rule; one
// failure's replay, run on its own, reproduces it.

import { PROOFS } from './proofs/deliveries.ts';
import { proveRules } from './prove.ts';

proveRules('deliveries rules, each proven by a fault that breaks it', PROOFS, 'X-Service-Signature in uppercase hex');
