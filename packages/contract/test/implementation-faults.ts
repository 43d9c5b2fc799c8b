// Faults of a broken implementation, one thing broken at a time behind the fault proxy: each with
// the operation or webhook and the check that must catch it, and what its report must say.
// faults.test.ts runs each against that one check; faults-cli.test.ts reuses two of them to fail
// the command line and to replay a written reproduction.
import { SIGNATURE_HEADER } from 'secmon-api/src/signing';
import type { CheckName } from '../src/kit/registry.ts';
import { all, answer, deliveries, deliveryHeader, field, header, requestPath } from './fault-dsl.ts';
import { editJson, type Fault, type ProxiedResponse } from './fault-proxy.ts';

const ITEM = /^\/v1\/policies\/pol_[^/?]+$/;

export const dropPolicyName = field({ method: 'GET', path: ITEM, status: 200 }, (json) => void delete json.name);

const findingSeverityAsNumber = field({ method: 'GET', path: /^\/v1\/findings\?/, status: 200 }, (json) => {
  const first = (json.data as Record<string, unknown>[])[0];
  if (first) first.severity = 3;
});

const noLocationOnWebhookCreate = header({ method: 'POST', path: /^\/v1\/webhooks$/, status: 201 }, 'location', () => undefined);

const internalErrorForBadPolicy = answer({ method: 'POST', path: /^\/v1\/policies$/, status: 400 }, (_request, response) =>
  editJson({ ...response, status: 500 }, (json) => {
    Object.assign(json, { type: 'https://secmon.dev/problems/internal-error', title: 'Internal error', status: 500 });
    delete json.errors;
  }),
);

const severityFilterIgnored = field({ method: 'GET', path: /^\/v1\/findings\?(.*&)?severity=/, status: 200 }, (json, request) => {
  const asked = new URL(request.path, 'http://x').searchParams.get('severity');
  for (const item of json.data as Record<string, unknown>[]) item.severity = asked === 'info' ? 'critical' : 'info';
});

const statusFilterIgnored = requestPath((path, method) =>
  method === 'GET' && path.startsWith('/v1/findings?') ? path.replace(/([?&])status=[^&]*&?/, '$1') : path,
);

export const versionSkips = field({ method: 'PUT', path: ITEM, status: 200 }, (json) => {
  json.version = Number(json.version) + 1;
});

const noAllowOn405 = header({ status: 405 }, 'allow', () => undefined);

const unmarkedReplay = header({ method: 'POST', path: /^\/v1\/policies$/, status: 201 }, 'idempotent-replayed', () => undefined);

/** Where each created resource is, from its create's `Location`, handed to `seen`. */
const created = (seen: (path: string, response: ProxiedResponse) => void) =>
  answer({ method: 'POST', status: 201 }, (_request, response) => {
    if (response.headers.location) seen(new URL(response.headers.location, 'http://x').pathname, response);
    return undefined;
  });

/** A cache in front of the service: what was created stays readable after its delete. */
function staleCacheAfterDelete(): Fault {
  const cache = new Map<string, ProxiedResponse>();
  return all(
    created((path, response) => cache.set(path, response)),
    answer({ method: 'GET', status: 404 }, (request) => {
      const cached = cache.get(request.path);
      return cached ? { ...cached, status: 200 } : undefined;
    }),
  );
}

/** A lagging read replica: the first read of a new resource does not find it yet. */
function readLagsBehindCreate(): Fault {
  const fresh = new Set<string>();
  return all(
    created((path) => fresh.add(path)),
    answer({ method: 'GET' }, (request, response) => {
      if (!fresh.delete(request.path)) return undefined;
      return editJson({ ...response, status: 404 }, (json) => {
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, {
          type: 'https://secmon.dev/problems/not-found',
          title: 'Resource not found',
          status: 404,
          detail: 'No such policy.',
          instance: request.path,
        });
      });
    }),
  );
}

const SIGNATURE = SIGNATURE_HEADER.toLowerCase();
const wrongSignature = deliveryHeader(SIGNATURE, () => `sha256=${'0'.repeat(64)}`);
const noSignature = deliveryHeader(SIGNATURE, () => undefined);
const reserialisedBody = deliveries(({ headers, body }) => ({
  headers,
  body: Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 1)),
}));

// Each fault, the operation or webhook and the check that must catch it, and what its report must say.
// The report names the operation that misbehaved, which may be another than the one the check is filed under.
export const FAULTS: [name: string, fault: Fault, subject: string, check: CheckName, says: (string | RegExp)[], reportedOn?: string][] = [
  [
    '(a) a required field dropped from a response',
    dropPolicyName,
    'getPolicy (GET /v1/policies/{id})',
    'success-response',
    ['[response-schema]', /\/ must have required property 'name'/, 'request:  GET '],
  ],
  [
    '(b) a field of the wrong type',
    findingSeverityAsNumber,
    'listFindings (GET /v1/findings)',
    'success-response',
    [/\/data\/0\/severity must be equal to one of the allowed values.*\(value: 3\)/],
  ],
  [
    '(c) Location omitted on create',
    noLocationOnWebhookCreate,
    'createWebhook (POST /v1/webhooks)',
    'success-response',
    ['[headers] required header Location is missing'],
  ],
  [
    '(d) 500 for a bad body',
    internalErrorForBadPolicy,
    'createPolicy (POST /v1/policies)',
    'invalid-body',
    [/expected 4xx \(invalid body: \/\S* .+\), got 500/, 'body: '],
  ],
  [
    '(g) an Idempotency-Key replay without Idempotent-Replayed',
    unmarkedReplay,
    'createPolicy (POST /v1/policies)',
    'idempotency',
    ['the replay carries Idempotent-Replayed: null, not true'],
  ],
  [
    '(f) a list filter that does not filter',
    severityFilterIgnored,
    'listFindings (GET /v1/findings)',
    'valid-input',
    [/filter severity=\w+ returned an item with severity=/],
  ],
  [
    '(g) a status filter that is ignored',
    statusFilterIgnored,
    'listFindings (GET /v1/findings)',
    'valid-input',
    [/filter status=\w+ returned an item with status=/],
  ],
  [
    '(h) version up by two on one update',
    versionSkips,
    'createPolicy (POST /v1/policies)',
    'lifecycle',
    ['version went from 1 to 3 on one update; it must go up by exactly one'],
    'updatePolicy (PUT /v1/policies/{id})',
  ],
  [
    '(i) 405 without Allow',
    noAllowOn405,
    'listPolicies (GET /v1/policies)',
    'unsupported-method',
    ['Allow is ""; the documented methods are GET, POST'],
  ],
  [
    '(j) a deleted resource still readable',
    staleCacheAfterDelete(),
    'deletePolicy (DELETE /v1/policies/{id})',
    'use-after-delete',
    ['expected 404 (read after delete), got 200'],
    'getPolicy (GET /v1/policies/{id})',
  ],
  [
    '(k) a new resource not readable at once',
    readLagsBehindCreate(),
    'createPolicy (POST /v1/policies)',
    'available-after-create',
    [/expected 200 \(read right after creating pol_\w+\), got 404/],
    'getPolicy (GET /v1/policies/{id})',
  ],
  [
    '(e) a wrongly signed event',
    wrongSignature,
    'findingCreated (webhook finding.created)',
    'delivery',
    [
      /\[signature\] rule delivery-headers\.1: X-Service-Signature does not verify/,
      '[signature] rule schema.WebhookSecret.1: X-Service-Signature does not verify',
    ],
  ],
  [
    '(e) an unsigned event from a webhook with a secret',
    noSignature,
    'findingResolved (webhook finding.resolved)',
    'delivery',
    [
      /\[signature\] rule delivery-headers\.1: X-Service-Signature is missing on a signed webhook/,
      '[signature] rule schema.Webhook.2: X-Service-Signature is missing on a signed webhook',
    ],
  ],
  [
    '(e) a body re-serialised after signing',
    reserialisedBody,
    'complianceChanged (webhook compliance.changed)',
    'delivery',
    ['does not verify against the raw body'],
  ],
];
