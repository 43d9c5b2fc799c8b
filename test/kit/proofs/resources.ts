// Proofs of the resources rules: each fault breaks exactly one rule the document states in words.
import { createHmac } from 'node:crypto';

import type { RuleId } from '../../contract/kit/rules/catalogue.ts';
import { all, dropRequestHeader, field, header, requestBody, requestHeader, status } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';
import { CREATED } from '../rule-faults.ts';

const FINDING_ITEM = /^\/v1\/findings\/fnd_[^/?]+$/;
const WEBHOOK_ITEM = /^\/v1\/webhooks\/whk_[^/?]+$/;
const POLICY_ITEM = /^\/v1\/policies\/pol_[^/?]+$/;
const FINDINGS_PUT = 'updateFinding (PUT /v1/findings/{id})';
const POLICY_READ = 'getPolicy (GET /v1/policies/{id})';
type Json = Record<string, unknown>;
const sent = (request: { body: Buffer }): Json => (request.body.length > 0 ? (JSON.parse(request.body.toString('utf8')) as Json) : {});
const reasonOf = (json: Json) => (json.resolution as Json | null | undefined)?.reason;

/** A finding PUT the service accepts (200, the finding unchanged) when `refused` picks the body it should refuse. */
function findingPutAccepted(refused: (body: Json) => boolean): Fault {
  return {
    response: async (request, response, upstream) => {
      if (request.method !== 'PUT' || !FINDING_ITEM.test(request.path) || response.status !== 400 || !refused(sent(request)))
        return undefined;
      const now = await upstream('GET', request.path, { authorization: request.headers.authorization ?? '' });
      return { status: 200, headers: { ...now.headers }, body: now.body };
    },
  };
}

/** Edits the finding a PUT answers when it moved to `to`. */
const findingPutAnswer = (to: string, edit: (json: Json) => void) =>
  field({ method: 'PUT', path: FINDING_ITEM, status: 200 }, (json, request) => {
    if (sent(request).status === to) edit(json);
  });

/** A policy reads compliant while none of its findings is `open` (an in-progress one left out). */
const inProgressCountsAsCompliant: Fault = {
  response: async (request, response, upstream) => {
    if (request.method !== 'GET' || !POLICY_ITEM.test(request.path) || response.status !== 200) return undefined;
    const id = request.path.split('/').pop()!;
    const open = await upstream('GET', `/v1/findings?policy_id=${id}&status=open&limit=1`, {
      authorization: request.headers.authorization ?? '',
    });
    const none = (JSON.parse(open.body.toString('utf8')) as { data?: unknown[] }).data?.length === 0;
    return none ? field({}, (json) => void (json.compliance_status = 'compliant')).response!(request, response, upstream) : undefined;
  },
};

/** Once a finding of a policy was deleted, the policy keeps reading non_compliant. */
function deleteLeavesNonCompliant(): Fault {
  const policyOf = new Map<string, string>();
  const touched = new Set<string>();
  const remember = field({ method: 'POST', path: /^\/v1\/findings$/, status: 201 }, (json) => {
    if (typeof json.policy_id === 'string') policyOf.set(`/v1/findings/${String(json.id)}`, json.policy_id);
  });
  const deleted: Fault = {
    response: (request, response) => {
      const policy = policyOf.get(request.path);
      if (request.method === 'DELETE' && response.status === 204 && policy) touched.add(policy);
      return undefined;
    },
  };
  const stale = field({ method: 'GET', path: POLICY_ITEM, status: 200 }, (json) => {
    if (touched.has(String(json.id))) json.compliance_status = 'non_compliant';
  });
  return all(remember, deleted, stale);
}

const withoutBody = ({ 'content-type': _type, ...rest }: Record<string, string>) => rest;

/** A delete the service answers 204 without deleting anything. */
const deleteDoesNothing: Fault = {
  path: (method, path) => (method === 'DELETE' ? path.replace(/_[0-9a-z]{26}$/, '_00000000000000000000000000') : path),
  response: (request, response) =>
    request.method === 'DELETE' && response.status === 404 && !request.path.endsWith('_00000000000000000000000000')
      ? { status: 204, headers: withoutBody(response.headers), body: Buffer.alloc(0) }
      : undefined,
};

/** A delete that ignores If-Match: a 412 is redone without the precondition. */
const deleteIgnoresIfMatch: Fault = {
  response: (request, response, upstream) =>
    request.method === 'DELETE' && response.status === 412
      ? upstream('DELETE', request.path, { authorization: request.headers.authorization ?? '' })
      : undefined,
};

/** Every If-Match compared with a tag no representation has. */
const ifMatchNeverMatches = requestHeader('if-match', () => '"never"');
/** An update answers the ETag the client sent, not the new representation's. */
const oldTagAnswered = (item: RegExp) =>
  header({ method: 'PUT', path: item, status: 200 }, 'etag', (value, request) => request.headers['if-match'] ?? value);

/** The status of each finding as the service last answered it, and a 409 for the moves `refuse` picks. */
function findingMovesRefused(refuse: (from: string, to: string) => boolean): () => Fault {
  return () => {
    const statusOf = new Map<string, string>();
    return {
      response: (request, response) => {
        const json = /json/.test(response.headers['content-type'] ?? '') ? (JSON.parse(response.body.toString('utf8')) as Json) : {};
        const from = statusOf.get(request.path);
        if (response.status < 300 && typeof json.status === 'string' && typeof json.id === 'string')
          statusOf.set(`/v1/findings/${json.id}`, json.status);
        const to = sent(request).status;
        const move = request.method === 'PUT' && FINDING_ITEM.test(request.path) && response.status === 200;
        if (!move || !from || typeof to !== 'string' || !refuse(from, to)) return undefined;
        const problem = {
          type: 'https://secmon.dev/problems/invalid-transition',
          title: 'Invalid transition',
          status: 409,
          detail: `${from} → ${to} is not allowed`,
          instance: request.path,
        };
        const headers = { ...response.headers, 'content-type': 'application/problem+json' };
        return { status: 409, headers, body: Buffer.from(JSON.stringify(problem)) };
      },
    };
  };
}

/** Every status change the service should refuse, accepted (the finding answered as it is). */
const anyMoveAccepted: Fault = {
  response: async (request, response, upstream) =>
    request.method === 'PUT' && FINDING_ITEM.test(request.path) && response.status === 409
      ? upstream('GET', request.path, { authorization: request.headers.authorization ?? '' })
      : undefined,
};

/** A PUT to `collection`'s items that keeps `fields` the body omits at the values they had. */
function putKeeps(collection: string, fields: string[]): () => Fault {
  return () => {
    const last = new Map<string, Json>();
    const item = new RegExp(`^${collection}/[^/?]+$`);
    return {
      request: (method, path, body) => {
        const known = last.get(path);
        if (method !== 'PUT' || !item.test(path) || !known || body.length === 0) return body;
        const json = JSON.parse(body.toString('utf8')) as Json;
        for (const name of fields) if (!(name in json) && name in known) json[name] = known[name];
        return Buffer.from(JSON.stringify(json));
      },
      response: (request, response) => {
        if (response.status < 300 && request.path.startsWith(collection) && /json/.test(response.headers['content-type'] ?? '')) {
          const json = JSON.parse(response.body.toString('utf8')) as Json;
          if (typeof json.id === 'string') last.set(`${collection}/${json.id}`, json);
        }
        return undefined;
      },
    };
  };
}

/** Webhook reads that say `disabled_reason` is `reason` whenever the webhook is disabled. */
const disabledReads = (reason: string | null) =>
  field({ method: 'GET', path: WEBHOOK_ITEM, status: 200 }, (json) => {
    if (json.enabled === false) json.disabled_reason = reason;
  });

/** A policy delete refused only while an `open` finding references it (an in-progress one does not count). */
function inProgressDoesNotBlock(): Fault {
  const statusOf = new Map<string, { policy: unknown; status: unknown }>();
  return {
    response: (request, response) => {
      const json = /json/.test(response.headers['content-type'] ?? '') ? (JSON.parse(response.body.toString('utf8')) as Json) : {};
      if (request.path.startsWith('/v1/findings') && response.status < 300 && typeof json.id === 'string')
        statusOf.set(json.id, { policy: json.policy_id, status: json.status });
      if (request.method !== 'DELETE' || !POLICY_ITEM.test(request.path) || response.status !== 409) return undefined;
      const policy = request.path.split('/').pop();
      const referencing = [...statusOf.values()].filter((finding) => finding.policy === policy);
      if (referencing.some((finding) => finding.status === 'open')) return undefined;
      return { status: 204, headers: withoutBody(response.headers), body: Buffer.alloc(0) };
    },
  };
}

/** Webhook reads carry the secret the webhook was created with, in a header of their own. */
function secretInHeader(): Fault {
  const secrets = new Map<string, string>();
  return {
    response: (request, response) => {
      const secret = sent(request).secret;
      if (request.method === 'POST' && response.status === 201 && typeof secret === 'string')
        secrets.set(String((JSON.parse(response.body.toString('utf8')) as Json).id), secret);
      const known = request.method === 'GET' ? secrets.get(request.path.split('/').pop() ?? '') : undefined;
      return known ? { ...response, headers: { ...response.headers, 'x-webhook-secret': known } } : undefined;
    },
  };
}

/** Policy names enforced unique: a second create with a name already taken is refused with 409. */
function uniqueNames(): Fault {
  const taken = new Set<unknown>();
  return {
    response: (request, response) => {
      if (request.method !== 'POST' || request.path !== '/v1/policies' || response.status !== 201) return undefined;
      const { name } = sent(request);
      if (!taken.has(name)) return void taken.add(name);
      const problem = {
        type: 'https://secmon.dev/problems/conflict',
        title: 'Conflict',
        status: 409,
        detail: 'name taken',
        instance: request.path,
      };
      const headers = { ...response.headers, 'content-type': 'application/problem+json' };
      return { status: 409, headers, body: Buffer.from(JSON.stringify(problem)) };
    },
  };
}

/** A policy PUT that writes the compliance_status the client sent (instead of refusing the unknown field). */
const complianceWritten = all(
  requestBody({ method: 'PUT', path: POLICY_ITEM }, (json) => void delete json.compliance_status),
  field({ method: 'PUT', path: POLICY_ITEM, status: 200 }, (json, request) => {
    const written = sent(request).compliance_status;
    if (written !== undefined) json.compliance_status = written;
  }),
);

/** A service that follows a receiver's redirect: the delivery is sent again to the Location it names. */
function followsRedirects(): Fault {
  let last: { headers: Record<string, string>; body: Buffer } | undefined;
  return {
    delivery: (headers, body) => (last = { headers, body }),
    deliveryAnswer: (answer) => {
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location && last)
        void fetch(location, { method: 'POST', headers: last.headers, body: new Uint8Array(last.body) }).catch(() => undefined);
      return answer;
    },
  };
}

const POLICY_CREATE = 'createPolicy (POST /v1/policies)';
const FINDING_CREATE = 'createFinding (POST /v1/findings)';
const WEBHOOK_CREATE = 'createWebhook (POST /v1/webhooks)';
const CREATES = [POLICY_CREATE, FINDING_CREATE, WEBHOOK_CREATE] as const;
const DELETES = [
  'deletePolicy (DELETE /v1/policies/{id})',
  'deleteFinding (DELETE /v1/findings/{id})',
  'deleteWebhook (DELETE /v1/webhooks/{id})',
];

/** One proof per resource: the same fault, the subject and rule of each. */
const perResource = (name: string, fault: Fault, check: RuleProof['check'], subjects: readonly string[], rules: RuleId[]): RuleProof[] =>
  rules.map((rule, i) => ({ name, fault, subject: subjects[i]!, check, rule }));

export const PROOFS: readonly RuleProof[] = [
  {
    name: 'a finding resolved without a resolution accepted',
    fault: findingPutAccepted((body) => body.status === 'resolved' && body.resolution === null),
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'schema.FindingUpdate.4',
  },
  {
    name: 'a finding resolved with a suppress reason accepted',
    fault: findingPutAccepted((body) => body.status === 'resolved' && reasonOf(body) === 'false_positive'),
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'schema.ResolutionReason.2',
  },
  {
    name: 'a resolution comment defaulting to something',
    fault: findingPutAnswer('resolved', (json) => void ((json.resolution as Json).comment = 'resolved')),
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'schema.Resolution.4',
  },
  {
    name: 'device_id rewritten by an update',
    fault: findingPutAnswer(
      'resolved',
      (json) => void (json.device_id = String(json.device_id).replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))),
    ),
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'schema.FindingUpdate.2',
  },
  {
    name: 'resolved_at set on suppressing',
    fault: findingPutAnswer('suppressed', (json) => void (json.resolved_at = json.updated_at)),
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'schema.Finding.3',
  },
  {
    name: 'a suppressed finding without its resolution',
    fault: findingPutAnswer('suppressed', (json) => void (json.resolution = null)),
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'schema.Resolution.2',
  },
  {
    name: 'in-progress findings not counted against compliance',
    fault: inProgressCountsAsCompliant,
    subject: POLICY_READ,
    check: 'compliance',
    rule: 'schema.ComplianceStatus.1',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'a policy still non_compliant after its last open finding was deleted',
    fault: deleteLeavesNonCompliant,
    subject: POLICY_READ,
    check: 'compliance',
    rule: 'deleteFinding.2',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'secret returned redacted as a field',
    fault: field({ method: 'GET', path: WEBHOOK_ITEM, status: 200 }, (json) => void (json.secret = '********')),
    subject: 'getWebhook (GET /v1/webhooks/{id})',
    check: 'secrets',
    rule: 'schema.WebhookSecret.2',
  },
  ...perResource('an Idempotency-Key never read', dropRequestHeader('idempotency-key'), 'idempotency', CREATES, [
    'createPolicy.4',
    'createFinding.4',
    'createWebhook.5',
  ]),
  ...perResource('a delete answered 204 that deletes nothing', deleteDoesNothing, 'use-after-delete', DELETES, [
    'deletePolicy.1',
    'deleteFinding.1',
    'deleteWebhook.1',
  ]),
  ...perResource('a delete that ignores If-Match', deleteIgnoresIfMatch, 'lifecycle', CREATES, [
    'deletePolicy.3',
    'deleteFinding.3',
    'deleteWebhook.3',
  ]),
  { name: 'an If-Match never matching', fault: ifMatchNeverMatches, subject: POLICY_CREATE, check: 'lifecycle', rule: 'updatePolicy.3' },
  { name: 'an If-Match never matching', fault: ifMatchNeverMatches, subject: FINDING_CREATE, check: 'lifecycle', rule: 'updateFinding.11' },
  {
    name: 'If-Match never read',
    fault: dropRequestHeader('if-match'),
    subject: FINDING_CREATE,
    check: 'lifecycle',
    rule: 'updateFinding.12',
  },
  {
    name: 'If-Match never read',
    fault: dropRequestHeader('if-match'),
    subject: WEBHOOK_CREATE,
    check: 'lifecycle',
    rule: 'updateWebhook.4',
  },
  {
    name: 'an update answering the old ETag',
    fault: oldTagAnswered(FINDING_ITEM),
    subject: FINDING_CREATE,
    check: 'lifecycle',
    rule: 'updateFinding.5',
  },
  {
    name: 'an update answering the old ETag',
    fault: oldTagAnswered(WEBHOOK_ITEM),
    subject: WEBHOOK_CREATE,
    check: 'lifecycle',
    rule: 'updateWebhook.3',
  },
  {
    name: 'version up by two on an update',
    fault: field({ method: 'PUT', path: POLICY_ITEM, status: 200 }, (json) => void (json.version = Number(json.version) + 1)),
    subject: POLICY_CREATE,
    check: 'lifecycle',
    rule: 'schema.Policy.3',
  },
  ...(['updateFinding.2', 'updateFinding.14', 'schema.FindingStatus.7', 'schema.FindingUpdate.5'] as const).map(
    (rule): RuleProof => ({
      name: 'every status change accepted',
      fault: anyMoveAccepted,
      subject: FINDINGS_PUT,
      check: 'transitions',
      rule,
    }),
  ),
  ...(
    [
      ['open', 'schema.FindingStatus.3'],
      ['in_progress', 'schema.FindingStatus.4'],
      ['resolved', 'schema.FindingStatus.5'],
      ['suppressed', 'schema.FindingStatus.6'],
    ] as const
  ).map(
    ([state, rule]): RuleProof => ({
      name: `no move out of ${state}`,
      fault: findingMovesRefused((from, to) => from === state && to !== state),
      subject: FINDINGS_PUT,
      check: 'transitions',
      rule,
    }),
  ),
  {
    name: 'setting the status a finding has refused',
    fault: findingMovesRefused((from, to) => from === to),
    subject: FINDINGS_PUT,
    check: 'transitions',
    rule: 'schema.FindingStatus.8',
  },
  ...(
    [
      ['POST', 201, 'createPolicy (POST /v1/policies)', 'createPolicy.5'],
      ['PUT', 200, 'updatePolicy (PUT /v1/policies/{id})', 'updatePolicy.4'],
      ['DELETE', 204, 'deletePolicy (DELETE /v1/policies/{id})', 'deletePolicy.4'],
      ['POST', 201, 'createFinding (POST /v1/findings)', 'createFinding.5'],
      ['PUT', 200, FINDINGS_PUT, 'updateFinding.6'],
      ['DELETE', 204, 'deleteFinding (DELETE /v1/findings/{id})', 'deleteFinding.4'],
      ['POST', 201, 'createWebhook (POST /v1/webhooks)', 'createWebhook.6'],
      ['PUT', 200, 'updateWebhook (PUT /v1/webhooks/{id})', 'updateWebhook.5'],
      ['DELETE', 204, 'deleteWebhook (DELETE /v1/webhooks/{id})', 'deleteWebhook.4'],
    ] as const
  ).map(
    ([method, to, subject, rule]): RuleProof => ({
      name: `a ${method} with a read-only key answered ${to}`,
      fault: status({ method, status: 403 }, to),
      subject,
      check: 'read-only-key-403',
      rule,
    }),
  ),
  {
    name: 'a policy PUT keeping the description it omits',
    fault: putKeeps('/v1/policies', ['description']),
    subject: 'updatePolicy (PUT /v1/policies/{id})',
    check: 'replace-semantics',
    rule: 'schema.Description.2',
  },
  {
    name: 'a policy PUT keeping the frameworks it omits',
    fault: putKeeps('/v1/policies', ['frameworks']),
    subject: 'updatePolicy (PUT /v1/policies/{id})',
    check: 'replace-semantics',
    rule: 'schema.PolicyWrite.6',
  },
  {
    name: 'a policy PUT keeping the enabled flag it omits',
    fault: putKeeps('/v1/policies', ['enabled']),
    subject: 'updatePolicy (PUT /v1/policies/{id})',
    check: 'replace-semantics',
    rule: 'schema.PolicyWrite.2',
  },
  ...(['schema.FindingUpdate.1', 'schema.FindingUpdate.3'] as const).map(
    (rule): RuleProof => ({
      name: 'a finding PUT keeping the policy_id it omits',
      fault: putKeeps('/v1/findings', ['policy_id']),
      subject: FINDINGS_PUT,
      check: 'replace-semantics',
      rule,
    }),
  ),
  {
    name: 'a webhook PUT keeping the enabled flag it omits',
    fault: putKeeps('/v1/webhooks', ['enabled']),
    subject: 'updateWebhook (PUT /v1/webhooks/{id})',
    check: 'replace-semantics',
    rule: 'schema.WebhookUpdate.1',
  },
  {
    name: 'a webhook disabled by its owner reads disabled by the service',
    fault: disabledReads('failing'),
    subject: 'updateWebhook (PUT /v1/webhooks/{id})',
    check: 'replace-semantics',
    rule: 'schema.Webhook.7',
  },
  {
    name: 'a webhook the service disabled reads no reason',
    fault: disabledReads(null),
    subject: CREATED,
    check: 'endpoint-gone',
    rule: 'schema.Webhook.4',
  },
  { name: 'a 410 read as failing', fault: disabledReads('failing'), subject: CREATED, check: 'endpoint-gone', rule: 'schema.Webhook.5' },
  ...(['updateWebhook.2', 'schema.WebhookUpdate.3'] as const).map(
    (rule): RuleProof => ({
      name: 're-enabling keeps disabled_reason',
      fault: field({ method: 'PUT', path: WEBHOOK_ITEM, status: 200 }, (json) => {
        if (json.enabled === true) json.disabled_reason = 'endpoint_gone';
      }),
      subject: CREATED,
      check: 'endpoint-gone',
      rule,
    }),
  ),
  {
    name: 'a policy an in-progress finding references deleted',
    fault: inProgressDoesNotBlock,
    subject: 'deletePolicy (DELETE /v1/policies/{id})',
    check: 'policy-in-use',
    rule: 'deletePolicy.6',
  },
  ...(
    [
      ['/v1/policies', POLICY_CREATE, 'createPolicy.1', 'schema.PolicyId.1', 'header.PolicyLocation.1', 'pol_'],
      ['/v1/findings', FINDING_CREATE, 'createFinding.1', 'schema.FindingId.1', 'header.FindingLocation.1', 'fnd_'],
      ['/v1/webhooks', WEBHOOK_CREATE, 'createWebhook.1', 'schema.WebhookId.1', 'header.WebhookLocation.1', 'whk_'],
    ] as const
  ).flatMap(([collection, subject, creates, id, location, prefix]): RuleProof[] => {
    const created = { method: 'POST', path: new RegExp(`^${collection}$`), status: 201 };
    return [
      { name: 'a valid create refused', fault: status(created, 400), subject, check: 'success-response', rule: creates },
      {
        name: 'an id with a letter Crockford base32 leaves out',
        fault: field(created, (json) => void (json.id = String(json.id).replace(/.$/, 'u'))),
        subject,
        check: 'success-response',
        rule: id,
      },
      {
        name: 'a Location naming no resource',
        fault: header(created, 'location', (value) => value?.replace(/[^/]+$/, `${prefix}${'0'.repeat(26)}`)),
        subject,
        check: 'success-response',
        rule: location,
      },
    ];
  }),
  {
    name: 'a device_id answered with a letter Crockford base32 leaves out',
    fault: field(
      { method: 'POST', path: /^\/v1\/findings$/, status: 201 },
      (json) => void (json.device_id = String(json.device_id).replace(/.$/, 'u')),
    ),
    subject: FINDING_CREATE,
    check: 'success-response',
    rule: 'schema.DeviceId.1',
  },
  {
    name: 'a timestamp with an offset instead of Z',
    fault: field(
      { method: 'POST', path: /^\/v1\/policies$/, status: 201 },
      (json) => void (json.created_at = String(json.created_at).replace(/Z$/, '+00:00')),
    ),
    subject: POLICY_CREATE,
    check: 'success-response',
    rule: 'schema.Timestamp.1',
  },
  {
    name: 'a refused webhook URL typed validation-error',
    fault: field({ method: 'POST', path: /^\/v1\/webhooks$/, status: 400 }, (json) => {
      if (json.type === 'https://secmon.dev/problems/url-not-allowed') json.type = 'https://secmon.dev/problems/validation-error';
    }),
    subject: 'listPolicies (GET /v1/policies)',
    check: 'problem-catalogue',
    rule: 'createWebhook.3',
  },
  {
    name: 'the secret returned in a header',
    fault: secretInHeader,
    subject: 'getWebhook (GET /v1/webhooks/{id})',
    check: 'secrets',
    rule: 'schema.Webhook.3',
  },
  {
    name: 'policy names enforced unique',
    fault: uniqueNames,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'pagination-rules',
    rule: 'schema.PolicyWrite.3',
  },
  {
    name: 'compliance_status written by a client',
    fault: complianceWritten,
    subject: POLICY_READ,
    check: 'compliance',
    rule: 'schema.ComplianceStatus.2',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'deliveries of a webhook with a secret sent unsigned',
    fault: {
      delivery: ({ 'x-service-signature': _hex, 'webhook-signature': _standard, ...headers }, body) => ({ headers, body }),
    },
    subject: CREATED,
    check: 'delivery',
    rule: 'schema.Webhook.2',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'X-Service-Signature keyed with another secret',
    fault: {
      delivery: (headers, body) => ({
        headers: { ...headers, 'x-service-signature': `sha256=${createHmac('sha256', 'another secret').update(body).digest('hex')}` },
        body,
      }),
    },
    subject: CREATED,
    check: 'delivery',
    rule: 'schema.WebhookSecret.1',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'a redirect followed',
    fault: followsRedirects,
    subject: CREATED,
    check: 'delivery-retry',
    rule: 'schema.WebhookUrl.3',
    options: { skipRetryTiming: 'compressed schedule' },
  },
];
