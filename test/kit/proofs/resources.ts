// Proofs of the resources rules: each fault breaks exactly one rule the document states in words.

import type { RuleId } from '../../contract/kit/rules/catalogue.ts';
import { all, dropRequestHeader, field, header, requestHeader } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';

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
];
