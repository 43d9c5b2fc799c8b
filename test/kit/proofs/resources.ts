// Proofs of the resources rules: each fault breaks exactly one rule the document states in words.
import { all, field } from '../fault-dsl.ts';
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
];
