// Proofs of the problems rules: each fault breaks exactly one rule the document states in words.
import { field, header, problemType, status } from '../fault-dsl.ts';
import type { RuleProof } from '../prove.ts';

const LIST = 'listPolicies (GET /v1/policies)';
const catalogue = (rule: RuleProof['rule'], name: string, from: string, to: string): RuleProof => ({
  name,
  fault: problemType(from, to),
  subject: LIST,
  check: 'problem-catalogue',
  rule,
});

const audit = (name: string, fault: RuleProof['fault'], rule: RuleProof['rule']): RuleProof => ({
  name,
  fault,
  subject: LIST,
  check: 'response-audit',
  rule,
});
const cors = (name: string, fault: RuleProof['fault'], rule: RuleProof['rule']): RuleProof => ({
  name,
  fault,
  subject: LIST,
  check: 'cors',
  rule,
  options: { corsOrigin: 'http://localhost:5173' },
});
const PREFLIGHT = { method: 'OPTIONS' };

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
  audit(
    'problems without detail',
    field({}, (json) => void (typeof json.type === 'string' && delete json.detail)),
    'errors.1',
  ),
  audit(
    'problems sent as application/json',
    header({}, 'content-type', (value) => value?.replace('application/problem+json', 'application/json')),
    'schema.Problem.1',
  ),
  audit(
    'every problem saying status 400',
    field({}, (json) => void (typeof json.type === 'string' && (json.status = 400))),
    'schema.Problem.6',
  ),
  audit(
    'validation problems naming only the first invalid part',
    field({ status: 400 }, (json) => void (Array.isArray(json.errors) && json.errors.splice(1))),
    'schema.Problem.9',
  ),
  audit(
    'validation problems naming only the first invalid part',
    field({ status: 400 }, (json) => void (Array.isArray(json.errors) && json.errors.splice(1))),
    'response.BadRequest.2',
  ),
  audit(
    'RateLimit t in milliseconds',
    header({}, 'ratelimit', (value) => value?.replace(/t=(\d+)/, (_m, t: string) => `t=${Number(t) * 1000}`)),
    'header.RateLimit.1',
  ),
  audit(
    'RateLimit-Policy stating the window in minutes',
    header({}, 'ratelimit-policy', (value) => value?.replace(/w=60/, 'w=1')),
    'header.RateLimitPolicy.1',
  ),
  cors('a preflight answered 401', status(PREFLIGHT, 401), 'browser-clients-cors.2'),
  cors(
    'a preflight not allowing If-Match',
    header(PREFLIGHT, 'access-control-allow-headers', (value) => value?.replace(/,?\s*if-match/i, '')),
    'browser-clients-cors.3',
  ),
  cors(
    'a preflight allowing credentials',
    header(PREFLIGHT, 'access-control-allow-credentials', () => 'true'),
    'browser-clients-cors.4',
  ),
];
