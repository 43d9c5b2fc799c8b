// Proofs of the problems rules: each fault breaks exactly one rule the document states in words.
import { field, header, problemType } from '../fault-dsl.ts';
import type { RuleProof } from '../prove.ts';

const LIST = 'listPolicies (GET /v1/policies)';
const catalogue = (rule: RuleProof['rule'], name: string, from: string, to: string): RuleProof => ({
  name,
  fault: problemType(from, to),
  subject: LIST,
  check: 'problem-catalogue',
  rule,
});

export const PROOFS: readonly RuleProof[] = [
  catalogue('errors.5', 'a schema break answered as malformed JSON', 'validation-error', 'malformed-json'),
  catalogue('errors.6', 'a body that is not JSON answered as a validation error', 'malformed-json', 'validation-error'),
  catalogue('errors.7', 'a refused webhook URL answered as a validation error', 'url-not-allowed', 'validation-error'),
  catalogue('errors.8', 'a missing key answered as forbidden', 'unauthorized', 'forbidden'),
  catalogue('errors.9', 'a missing scope answered as unauthorized', 'forbidden', 'unauthorized'),
  catalogue('errors.10', 'an unknown id answered as method-not-allowed', 'not-found', 'method-not-allowed'),
  catalogue('errors.11', 'a wrong method answered as not-found', 'method-not-allowed', 'not-found'),
  catalogue('errors.13', 'an illegal transition answered as policy-in-use', 'invalid-transition', 'policy-in-use'),
  catalogue('errors.14', 'a reused Idempotency-Key answered as invalid-transition', 'idempotency-key-reused', 'invalid-transition'),
  catalogue('errors.16', 'a stale If-Match answered as a conflict', 'precondition-failed', 'invalid-transition'),
  catalogue('errors.17', 'an oversized body answered as unsupported media type', 'payload-too-large', 'unsupported-media-type'),
  catalogue('errors.18', 'a text/plain body answered as too large', 'unsupported-media-type', 'payload-too-large'),
  {
    name: 'the 401 without WWW-Authenticate',
    fault: header({ status: 401 }, 'www-authenticate', () => undefined),
    subject: LIST,
    check: 'problem-catalogue',
    rule: 'authentication.3',
  },
  {
    name: 'instance naming another path',
    fault: field({ status: 400 }, (json) => void (json.instance = '/v1/elsewhere')),
    subject: LIST,
    check: 'problem-catalogue',
    rule: 'schema.Problem.8',
  },
  {
    name: 'pointers written with dots',
    fault: field({ status: 400 }, (json) => {
      for (const error of (json.errors as { pointer: string }[] | undefined) ?? [])
        error.pointer = error.pointer.slice(1).replace(/\//g, '.');
    }),
    subject: LIST,
    check: 'problem-catalogue',
    rule: 'schema.ProblemError.2',
  },
];
