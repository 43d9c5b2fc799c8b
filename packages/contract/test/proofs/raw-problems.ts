// Proofs of the problems a client provokes only over a raw socket (a garbled request, oversized
// header fields, header fields that stop arriving): the proxy hands them to the reference server
// byte for byte, and each fault rewrites its answer.
import { rawAnswer } from '../fault-dsl.ts';
import type { RuleProof } from '../prove.ts';

const catalogue = (name: string, fault: RuleProof['fault'], rule: RuleProof['rule']): RuleProof => ({
  name,
  fault,
  subject: 'listPolicies (GET /v1/policies)',
  check: 'problem-catalogue',
  rule,
});

export const PROOFS: readonly RuleProof[] = [
  catalogue('a garbled request answered as a validation error', rawAnswer(400, 400, 'validation-error'), 'errors.4'),
  catalogue('oversized header fields answered 400 malformed-request', rawAnswer(431, 400, 'malformed-request'), 'errors.20'),
  catalogue('stalled header fields answered 400 malformed-request', rawAnswer(408, 400, 'malformed-request'), 'errors.12'),
];
