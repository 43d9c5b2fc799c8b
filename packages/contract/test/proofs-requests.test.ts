// The kit fails an implementation that breaks one of the requests rules, naming the rule.

import { PROOFS } from './proofs/requests.ts';
import { proveRules } from './prove.ts';

proveRules('requests rules, each proven by a fault that breaks it', PROOFS, 'If-Match ignored');
