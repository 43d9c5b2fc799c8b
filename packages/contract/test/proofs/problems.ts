// Proofs of the problems rules (errors, authentication, rate limits, CORS, limits): each fault
// breaks exactly one rule the document states in words, on the reference server behind the proxy.
import { randomUUID } from 'node:crypto';
import {
  answer,
  failedAuthLimited,
  field,
  header,
  problemAnswer,
  problemType,
  quotaOf,
  rateLimited,
  requestHeader,
  requestHeaders,
  requestPath,
  status,
} from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';
import { READER_KEY, WRITER_KEY } from '../reference-target.ts';

const LIST = 'listPolicies (GET /v1/policies)';
const CREATE = 'createPolicy (POST /v1/policies)';
const proof =
  (check: RuleProof['check'], subject: string, options?: RuleProof['options']) =>
  (name: string, fault: RuleProof['fault'], rule: RuleProof['rule']): RuleProof => ({
    name,
    fault,
    subject,
    check,
    rule,
    ...(options ? { options } : {}),
  });
const catalogue = proof('problem-catalogue', LIST);
/** Problems of type `from` answered with the type `to` (their status kept). */
const swapped = (rule: RuleProof['rule'], name: string, from: string, to: string) => catalogue(name, problemType(from, to), rule);
const audit = proof('response-audit', LIST);
const cors = proof('cors', LIST, { corsOrigin: 'http://localhost:5173' });
const success = proof('success-response', CREATE);
const invalidBody = proof('invalid-body', CREATE);
const noKey = proof('no-credentials-401', LIST);
const readOnly = proof('read-only-key-403', CREATE);
const quota = proof('rate-limit-429', LIST);
const PREFLIGHT = { method: 'OPTIONS' };

const ADDRESS_POLICY = '"failed-auth-30-in-1min"; q=30; w=60';
const addressLimited = (ratelimit = '"failed-auth-30-in-1min"; r=0; t=30', policy = ADDRESS_POLICY) =>
  rateLimited({ 'retry-after': '30', 'ratelimit-policy': policy, ratelimit });
/** The address's 429 under the policy of the key that reads the list. */
const keyPolicyOnAddress = failedAuthLimited(async (_request, upstream) => {
  const served = await upstream('GET', '/v1/policies?limit=1', { authorization: `Bearer ${WRITER_KEY}` });
  const policy = served.headers['ratelimit-policy']!;
  return addressLimited(`${policy.split(';')[0]}; r=0; t=30`, policy);
});
/** Once the address is over its failed-authentication limit, its valid keys are refused too. */
function addressLockedOut(): Fault {
  let locked = false;
  return answer({}, (_request, response) => {
    if (response.status === 401) {
      locked = true;
      return addressLimited();
    }
    // Longer than the kit waits on a 429, so it judges this answer instead of retrying.
    return locked ? rateLimited({ 'retry-after': '86400' }) : undefined;
  });
}
const quotaUsedUp = (headers: Record<string, string>, type?: string) => quotaOf(3, () => rateLimited(headers, type));
const readerWrites = requestHeader('authorization', (value) => (value === `Bearer ${READER_KEY}` ? `Bearer ${WRITER_KEY}` : value));
/** Bodies over 512 KiB refused as too large. */
const halfMebibyteLimit = answer({ status: 400 }, (request) =>
  request.body.length > 512 * 1024 ? problemAnswer(413, 'payload-too-large') : undefined,
);

export const PROOFS: readonly RuleProof[] = [
  swapped('errors.5', 'a schema break answered as malformed JSON', 'validation-error', 'malformed-json'),
  swapped('errors.6', 'a body that is not JSON answered as a validation error', 'malformed-json', 'validation-error'),
  swapped('errors.7', 'a refused webhook URL answered as a validation error', 'url-not-allowed', 'validation-error'),
  swapped('errors.8', 'a missing key answered as forbidden', 'unauthorized', 'forbidden'),
  swapped('errors.9', 'a missing scope answered as unauthorized', 'forbidden', 'unauthorized'),
  swapped('errors.10', 'an unknown id answered as method-not-allowed', 'not-found', 'method-not-allowed'),
  swapped('errors.11', 'a wrong method answered as not-found', 'method-not-allowed', 'not-found'),
  swapped('errors.13', 'an illegal transition answered as policy-in-use', 'invalid-transition', 'policy-in-use'),
  swapped('errors.14', 'a reused Idempotency-Key answered as invalid-transition', 'idempotency-key-reused', 'invalid-transition'),
  swapped('errors.16', 'a stale If-Match answered as a conflict', 'precondition-failed', 'invalid-transition'),
  swapped('errors.17', 'an oversized body answered as unsupported media type', 'payload-too-large', 'unsupported-media-type'),
  swapped('errors.18', 'a text/plain body answered as too large', 'unsupported-media-type', 'payload-too-large'),
  catalogue(
    'problem types that change with every request',
    field({}, (json) => void (typeof json.type === 'string' && (json.type = `${json.type}#${randomUUID()}`))),
    'schema.Problem.4',
  ),
  catalogue(
    'the 401 without WWW-Authenticate',
    header({ status: 401 }, 'www-authenticate', () => undefined),
    'authentication.3',
  ),
  catalogue(
    'instance naming another path',
    field({ status: 400 }, (json) => void (json.instance = '/v1/elsewhere')),
    'schema.Problem.8',
  ),
  catalogue(
    'a refused webhook URL whose errors item names neither pointer nor message',
    field({ status: 400 }, (json) => {
      if (json.type === 'https://secmon.dev/problems/url-not-allowed') json.errors = [{}];
    }),
    'errors.2',
  ),
  catalogue(
    'a refused webhook URL whose errors point at the whole request',
    field({ status: 400 }, (json) => {
      if (json.type === 'https://secmon.dev/problems/url-not-allowed')
        for (const error of json.errors as { pointer: string }[]) error.pointer = '';
    }),
    'schema.ProblemError.2',
  ),
  catalogue(
    'pointers written with dots',
    field({ status: 400 }, (json) => {
      for (const error of (json.errors as { pointer: string }[] | undefined) ?? [])
        error.pointer = error.pointer.slice(1).replace(/\//g, '.');
    }),
    'schema.ProblemError.2',
  ),
  audit(
    'errors whose message is empty',
    field({ status: 400 }, (json) => {
      for (const error of (json.errors as { message: string }[] | undefined) ?? []) error.message = '';
    }),
    'schema.ProblemError.3',
  ),
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
  success(
    'a bearer token refused (another scheme expected)',
    requestHeader('authorization', (v) => v.replace(/^Bearer /, 'Token ')),
    'authentication.1',
  ),
  success(
    'a bearer token refused (another scheme expected)',
    requestHeader('authorization', (v) => v.replace(/^Bearer /, 'Token ')),
    'security.bearerAuth.1',
  ),
  success(
    'the API served without /v1 in the path',
    requestPath((path) => path.replace(/^\/v1\//, '/')),
    'versioning.1',
  ),
  success(
    'a field the document does not list',
    field({ method: 'POST', path: /^\/v1\/policies$/ }, (json) => void (json.kit_extra = true)),
    'versioning.14',
  ),
  success(
    'identifiers in upper case',
    field({ method: 'POST', path: /^\/v1\/policies$/ }, (json) => void (json.id = String(json.id).toUpperCase())),
    'limits.2',
  ),
  invalidBody('a body under 1 MiB refused as too large', halfMebibyteLimit, 'limits.1'),
  invalidBody('a body over 1 MiB answered 400', status({ status: 413 }, 400), 'response.PayloadTooLarge.1'),
  invalidBody('a text/plain body answered 400', status({ status: 415 }, 400), 'response.UnsupportedMediaType.1'),
  proof('use-after-delete', 'deletePolicy (DELETE /v1/policies/{id})')(
    'a deleted policy read as 410 Gone',
    status({ method: 'GET', status: 404, path: /^\/v1\/policies\/pol_/ }, 410),
    'response.NotFound.1',
  ),
  noKey(
    'a 401 naming the Basic scheme',
    header({ status: 401 }, 'www-authenticate', () => 'Basic realm="secmon"'),
    'header.WWWAuthenticate.1',
  ),
  noKey(
    'requests without a key served as the default key',
    requestHeaders((headers) => (headers.authorization ? headers : { ...headers, authorization: `Bearer ${WRITER_KEY}` })),
    'response.Unauthorized.1',
  ),
  noKey(
    'the address 429 saying failures remain',
    failedAuthLimited(() => addressLimited('"failed-auth-30-in-1min"; r=5; t=30')),
    'header.RateLimit.2',
  ),
  noKey('the address 429 under the key policy', keyPolicyOnAddress, 'rate-limits.6'),
  noKey('the address 429 under the key policy', keyPolicyOnAddress, 'header.RateLimitPolicy.2'),
  noKey(
    'the address over its limit refused with 403',
    failedAuthLimited(() => ({ ...addressLimited(), status: 403 })),
    'response.Unauthorized.3',
  ),
  noKey('valid keys locked out with the address', addressLockedOut, 'rate-limits.7'),
  readOnly('a read-only key allowed to write', readerWrites, 'authentication.2'),
  readOnly('a read-only key allowed to write', readerWrites, 'security.bearerAuth.2'),
  readOnly('a read-only key allowed to write', readerWrites, 'response.Forbidden.1'),
  quota('a stated quota never enforced', () => quotaOf(3), 'rate-limits.4'),
  quota('a stated quota never enforced', () => quotaOf(3), 'response.TooManyRequests.1'),
  quota('Retry-After as an HTTP date', () => quotaUsedUp({ 'retry-after': 'Thu, 26 Nov 2026 01:00:00 GMT' }), 'header.RetryAfter.1'),
  quota('a 429 of another type', () => quotaUsedUp({ 'retry-after': '30' }, 'quota-exceeded'), 'errors.19'),
];
