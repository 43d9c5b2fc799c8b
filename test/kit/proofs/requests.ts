// Proofs of the requests rules: each fault breaks exactly one rule the document states in words.

import { field, header, requestHeader, status, withoutRequestHeader } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';

const RESOURCES = [
  { name: 'policies', one: 'Policy', many: 'Policies' },
  { name: 'findings', one: 'Finding', many: 'Findings' },
  { name: 'webhooks', one: 'Webhook', many: 'Webhooks' },
] as const;
type Resource = (typeof RESOURCES)[number];

const create = (r: Resource) => `create${r.one} (POST /v1/${r.name})`;
const list = (r: Resource) => `list${r.many} (GET /v1/${r.name})`;
const collection = (r: Resource) => new RegExp(`^/v1/${r.name}(\\?|$)`);
const [POLICIES, FINDINGS, WEBHOOKS] = RESOURCES;

/** A list answering each page oldest first. */
const oldestFirst = (r: Resource) =>
  field({ method: 'GET', path: collection(r), status: 200 }, (json) => void (json.data as unknown[]).reverse());
/** A list that ignores `cursor`: every page is the first again. */
const cursorIgnored = (r: Resource): Fault => ({
  path: (method, path) => (method === 'GET' && collection(r).test(path) ? path.replace(/([?&])cursor=[^&]*&?/, '$1') : path),
});
/** The last page of a list carries a next_cursor, which leads to an empty page that has one too. */
const END = 'kit-end-of-list';
const lastPageWithCursor: Fault = {
  response: (request, response) => {
    if (request.method !== 'GET' || !collection(POLICIES).test(request.path)) return undefined;
    if (request.path.includes(`cursor=${END}`)) {
      const headers = { ...response.headers, 'content-type': 'application/json' };
      return { status: 200, headers, body: Buffer.from(JSON.stringify({ data: [], next_cursor: END })) };
    }
    if (response.status !== 200) return undefined;
    const json = JSON.parse(response.body.toString('utf8')) as { next_cursor: string | null };
    return json.next_cursor === null ? { ...response, body: Buffer.from(JSON.stringify({ ...json, next_cursor: END })) } : undefined;
  },
};
/** An `If-None-Match` answered 304 whatever tag it carries. */
const notModifiedAlways: Fault = {
  response: (request, response) => {
    if (!request.headers['if-none-match'] || response.status !== 200) return undefined;
    const { etag } = response.headers;
    const headers: Record<string, string> = etag ? { etag } : {};
    return { status: 304, headers, body: Buffer.alloc(0) };
  },
};
/** An update answers with the ETag the client sent: the tag does not follow the representation. */
const etagKeptOnUpdate = header({ method: 'PUT', status: 200 }, 'etag', (value, request) => request.headers['if-match'] ?? value);

const lifecycle = (r: Resource, name: string, fault: Fault, rule: RuleProof['rule']): RuleProof => ({
  name,
  fault,
  subject: create(r),
  check: 'lifecycle',
  rule,
});
const pagination = (r: Resource, name: string, fault: Fault, rule: RuleProof['rule']): RuleProof => ({
  name,
  fault,
  subject: list(r),
  check: 'pagination',
  rule,
});
const idempotency = (name: string, fault: Fault, rule: RuleProof['rule']): RuleProof => ({
  name,
  fault,
  subject: create(POLICIES),
  check: 'idempotency',
  rule,
});

export const PROOFS: readonly RuleProof[] = [
  pagination(POLICIES, 'lists oldest first', oldestFirst(POLICIES), 'pagination.1'),
  pagination(POLICIES, 'a cursor ignored', cursorIgnored(POLICIES), 'pagination.3'),
  {
    name: 'weak ETags',
    // Only on the read the audit makes without judging it: every judged answer's ETag header schema refuses a weak one.
    fault: header({ method: 'GET', path: /^\/v1\/webhooks\/whk_/ }, 'etag', (value) => value && `W/${value}`),
    subject: list(POLICIES),
    check: 'response-audit',
    rule: 'idempotency-and-concurrency.2',
  },
  lifecycle(POLICIES, 'If-Match ignored', withoutRequestHeader('if-match'), 'idempotency-and-concurrency.5'),
  pagination(POLICIES, 'policies oldest first', oldestFirst(POLICIES), 'listPolicies.1'),
  pagination(POLICIES, 'the policies cursor ignored', cursorIgnored(POLICIES), 'listPolicies.2'),
  lifecycle(
    POLICIES,
    'If-None-Match ignored on policies',
    requestHeader('if-none-match', () => '"other"'),
    'getPolicy.2',
  ),
  pagination(FINDINGS, 'findings oldest first', oldestFirst(FINDINGS), 'listFindings.1'),
  pagination(FINDINGS, 'the findings cursor ignored', cursorIgnored(FINDINGS), 'listFindings.2'),
  lifecycle(
    FINDINGS,
    'If-None-Match ignored on findings',
    requestHeader('if-none-match', () => '"other"'),
    'getFinding.2',
  ),
  pagination(WEBHOOKS, 'webhooks oldest first', oldestFirst(WEBHOOKS), 'listWebhooks.1'),
  pagination(WEBHOOKS, 'the webhooks cursor ignored', cursorIgnored(WEBHOOKS), 'listWebhooks.2'),
  lifecycle(
    WEBHOOKS,
    'If-None-Match ignored on webhooks',
    requestHeader('if-none-match', () => '"other"'),
    'getWebhook.2',
  ),
  pagination(FINDINGS, 'findings pages oldest first', oldestFirst(FINDINGS), 'schema.FindingList.1'),
  pagination(POLICIES, 'the last page with a next_cursor', lastPageWithCursor, 'schema.NextCursor.1'),
  pagination(POLICIES, 'policy pages oldest first', oldestFirst(POLICIES), 'schema.PolicyList.1'),
  pagination(WEBHOOKS, 'webhook pages oldest first', oldestFirst(WEBHOOKS), 'schema.WebhookList.1'),
  pagination(POLICIES, 'the cursor parameter ignored', cursorIgnored(POLICIES), 'param.Cursor.1'),
  idempotency('Idempotency-Key ignored', withoutRequestHeader('idempotency-key'), 'param.IdempotencyKey.2'),
  lifecycle(
    POLICIES,
    'If-None-Match ignored',
    requestHeader('if-none-match', () => '"other"'),
    'param.IfNoneMatch.1',
  ),
  lifecycle(POLICIES, 'If-Match ignored on updates', withoutRequestHeader('if-match'), 'param.IfMatch.1'),
  lifecycle(POLICIES, 'an ETag that does not change on update', etagKeptOnUpdate, 'header.ETag.1'),
  lifecycle(
    POLICIES,
    'If-None-Match ignored, for the ETag',
    requestHeader('if-none-match', () => '"other"'),
    'header.ETag.2',
  ),
  idempotency(
    'no Idempotent-Replayed on replays',
    header({ method: 'POST' }, 'idempotent-replayed', () => undefined),
    'header.IdempotentReplayed.1',
  ),
  idempotency('a reused Idempotency-Key accepted', status({ method: 'POST', status: 409 }, 201), 'response.IdempotencyConflict.1'),
  lifecycle(POLICIES, 'If-None-Match answered 304 for an old ETag', notModifiedAlways, 'response.NotModified.1'),
  lifecycle(
    POLICIES,
    'a matching If-Match refused',
    requestHeader('if-match', () => '"stale"'),
    'response.PreconditionFailed.1',
  ),
];
