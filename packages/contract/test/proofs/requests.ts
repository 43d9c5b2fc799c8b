// Proofs of the requests rules: each fault breaks what the rule it proves states and nothing else
// the check judges. Where the document says one thing in several places (an operation's own
// description, the parameter's, the header's, the list schema's), one fault breaks each of those
// sentences, and each has its own proof.

import {
  all,
  answer,
  field,
  header,
  jsonAnswer,
  requestBody,
  requestHeader,
  status,
  withoutQuery,
  withoutRequestHeader,
} from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';
import { READER_KEY } from '../reference-target.ts';
import { filterCaseFolded, limitClamped, madeUpCursorCrashes } from './query-faults.ts';

const RESOURCES = [
  { name: 'policies', one: 'Policy', many: 'Policies' },
  { name: 'findings', one: 'Finding', many: 'Findings' },
  { name: 'webhooks', one: 'Webhook', many: 'Webhooks' },
] as const;
type Resource = (typeof RESOURCES)[number];

const create = (r: Resource) => `create${r.one} (POST /v1/${r.name})`;
const read = (r: Resource) => `get${r.one} (GET /v1/${r.name}/{id})`;
const item = (r: Resource) => new RegExp(`^/v1/${r.name}/[^/?]+`);
const list = (r: Resource) => `list${r.many} (GET /v1/${r.name})`;
const collection = (r: Resource) => new RegExp(`^/v1/${r.name}(\\?|$)`);
const [POLICIES, FINDINGS, WEBHOOKS] = RESOURCES;

/** A list answering each page oldest first. */
const oldestFirst = (r: Resource) =>
  field({ method: 'GET', path: collection(r), status: 200 }, (json) => void (json.data as unknown[]).reverse());
/** A list that ignores `cursor`: every page is the first again. */
const cursorIgnored = (r: Resource) => withoutQuery({ method: 'GET', path: collection(r) }, 'cursor');
/** The last page of a list carries a next_cursor, which leads to an empty page that has one too. */
const END = 'kit-end-of-list';
const lastPageWithCursor = answer({ method: 'GET', path: collection(POLICIES) }, (request, response) => {
  if (request.path.includes(`cursor=${END}`)) {
    const headers = { ...response.headers, 'content-type': 'application/json' };
    return { status: 200, headers, body: Buffer.from(JSON.stringify({ data: [], next_cursor: END })) };
  }
  if (response.status !== 200) return undefined;
  const json = JSON.parse(response.body.toString('utf8')) as { next_cursor: string | null };
  return json.next_cursor === null ? { ...response, body: Buffer.from(JSON.stringify({ ...json, next_cursor: END })) } : undefined;
});
/** An `If-None-Match` answered 304 whatever tag it carries. */
const notModifiedAlways = answer({ status: 200 }, (request, response) => {
  if (!request.headers['if-none-match']) return undefined;
  const { etag } = response.headers;
  const headers: Record<string, string> = etag ? { etag } : {};
  return { ...jsonAnswer(304), headers };
});
/** An update answers with the ETag the client sent: the tag does not follow the representation. */
const etagKeptOnUpdate = header({ method: 'PUT', status: 200 }, 'etag', (value, request) => request.headers['if-match'] ?? value);

/** If-None-Match taken as another tag: never 304. */
const notModifiedIgnored = requestHeader('if-none-match', () => '"other"');

/** The list ignores one of its filters. */
const filterIgnored = (r: Resource, name: string, rule: RuleProof['rule']): RuleProof => ({
  name: `the ${r.name} filter ${name} ignored`,
  fault: withoutQuery({ method: 'GET', path: collection(r) }, name),
  subject: list(r),
  check: 'valid-input',
  rule,
});
/** A read-only key refused on the reads of one resource (`path`). */
const readKeyRefused = (path: RegExp, rule: RuleProof['rule']): RuleProof => ({
  name: `a read-only key refused on ${path.source}`,
  fault: answer({ method: 'GET', path }, (request, response) =>
    request.headers.authorization === `Bearer ${READER_KEY}` ? { ...response, status: 403 } : undefined,
  ),
  subject: list(POLICIES),
  check: 'read-scope',
  rule,
});
/** A list that accepts query parameters it does not know. */
const unknownAccepted = (r: Resource, rule: RuleProof['rule']): RuleProof => ({
  name: `unknown query parameters accepted on ${r.name}`,
  fault: withoutQuery({ method: 'GET', path: collection(r) }, 'contract_kit_unknown'),
  subject: list(r),
  check: 'invalid-parameters',
  rule,
});
/** A read without its ETag header. */
const readWithoutEtag = (r: Resource, rule: RuleProof['rule']): RuleProof => ({
  name: `${r.name} read without an ETag`,
  fault: header({ method: 'GET', path: item(r) }, 'etag', () => undefined),
  subject: read(r),
  check: 'success-response',
  rule,
});
/** A malformed id answered 404 like an unknown one. */
const malformedIdNotFound = (r: Resource, rule: RuleProof['rule']): RuleProof => ({
  name: `a malformed ${r.name} id answered 404`,
  fault: all(
    status({ method: 'GET', path: item(r), status: 400 }, 404),
    field({ method: 'GET', path: item(r), status: 404 }, (json) => void (json.status = 404)),
  ),
  subject: read(r),
  check: 'invalid-parameters',
  rule,
});
/** A validation problem's entry for an unknown query parameter, when others are named beside it, rewritten by `edit` (undefined: dropped). */
const unknownBesideOthers = (edit: (pointer: string) => string | undefined) =>
  field({ method: 'GET', path: collection(POLICIES), status: 400 }, (json) => {
    const errors = json.errors as { pointer: string }[] | undefined;
    if (!errors || errors.length < 2) return;
    json.errors = errors.flatMap((error) => {
      if (!error.pointer.startsWith('/query/contract_kit_unknown')) return [error];
      const pointer = edit(error.pointer);
      return pointer === undefined ? [] : [{ ...error, pointer }];
    });
  });
/** A cursor used without the filters it was issued with accepted (an empty page). */
const cursorUnbound = answer({ method: 'GET', path: /[?&]cursor=/, status: 400 }, (request) =>
  /[?&]enabled=/.test(request.path) ? undefined : jsonAnswer(200, { data: [], next_cursor: null }),
);
/** A first page refused without a cursor. */
const cursorRequired = answer({ method: 'GET', path: collection(POLICIES) }, (request, response) =>
  /[?&]cursor=/.test(request.path) ? undefined : { ...response, status: 400 },
);
/** A policy PUT that keeps an omitted `enabled: false` instead of taking the default. */
const enabledKept = requestBody({ method: 'PUT', path: item(POLICIES) }, (json) => void (json.enabled ??= false));
const other = (name: string, fault: Fault, subject: string, check: RuleProof['check'], rule: RuleProof['rule']): RuleProof => ({
  name,
  fault,
  subject,
  check,
  rule,
});

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

type Rule = RuleProof['rule'];
/**
 * What every list and read of a resource gets, for the rules its own descriptions state: the order,
 * the walk, a filter, unknown parameters, the read scope of the list, the read's ETag, If-None-Match
 * and the read scope of the read.
 */
const resourceProofs = (r: Resource, filter: string, rules: readonly [Rule, Rule, Rule, Rule, Rule, Rule, Rule, Rule]): RuleProof[] => {
  const [order, walk, filters, unknown, listScope, etag, notModified, readScope] = rules;
  return [
    pagination(r, `${r.name} oldest first`, oldestFirst(r), order),
    pagination(r, `the ${r.name} cursor ignored`, cursorIgnored(r), walk),
    filterIgnored(r, filter, filters),
    unknownAccepted(r, unknown),
    readKeyRefused(collection(r), listScope),
    readWithoutEtag(r, etag),
    lifecycle(r, `If-None-Match ignored on ${r.name}`, notModifiedIgnored, notModified),
    readKeyRefused(item(r), readScope),
  ];
};

export const PROOFS: readonly RuleProof[] = [
  pagination(POLICIES, 'lists oldest first', oldestFirst(POLICIES), 'pagination.1'),
  pagination(POLICIES, 'a cursor ignored', cursorIgnored(POLICIES), 'pagination.3'),
  // Only on the read the audit makes without judging it: every judged answer's ETag header schema refuses a weak one.
  other(
    'weak ETags',
    header({ method: 'GET', path: item(WEBHOOKS) }, 'etag', (v) => v && `W/${v}`),
    list(POLICIES),
    'response-audit',
    'idempotency-and-concurrency.2',
  ),
  other(
    'a policy PUT keeping an omitted field',
    enabledKept,
    'updatePolicy (PUT /v1/policies/{id})',
    'replace-semantics',
    'idempotency-and-concurrency.4',
  ),
  lifecycle(POLICIES, 'If-Match ignored', withoutRequestHeader('if-match'), 'idempotency-and-concurrency.5'),
  ...resourceProofs(POLICIES, 'enabled', [
    'listPolicies.1',
    'listPolicies.2',
    'listPolicies.3',
    'listPolicies.4',
    'listPolicies.5',
    'getPolicy.1',
    'getPolicy.2',
    'getPolicy.3',
  ]),
  ...resourceProofs(FINDINGS, 'severity', [
    'listFindings.1',
    'listFindings.2',
    'listFindings.3',
    'listFindings.4',
    'listFindings.5',
    'getFinding.1',
    'getFinding.2',
    'getFinding.3',
  ]),
  filterIgnored(FINDINGS, 'status', 'listFindings.6'),
  filterIgnored(FINDINGS, 'device_id', 'listFindings.7'),
  filterIgnored(FINDINGS, 'policy_id', 'listFindings.8'),
  ...resourceProofs(WEBHOOKS, 'enabled', [
    'listWebhooks.1',
    'listWebhooks.2',
    'listWebhooks.3',
    'listWebhooks.4',
    'listWebhooks.5',
    'getWebhook.1',
    'getWebhook.2',
    'getWebhook.3',
  ]),
  filterIgnored(WEBHOOKS, 'event', 'listWebhooks.6'),
  other('a cursor used without its filters accepted', cursorUnbound, list(POLICIES), 'pagination-rules', 'schema.Cursor.3'),
  pagination(FINDINGS, 'findings pages oldest first', oldestFirst(FINDINGS), 'schema.FindingList.1'),
  pagination(POLICIES, 'the last page with a next_cursor', lastPageWithCursor, 'schema.NextCursor.1'),
  pagination(POLICIES, 'policy pages oldest first', oldestFirst(POLICIES), 'schema.PolicyList.1'),
  pagination(WEBHOOKS, 'webhook pages oldest first', oldestFirst(WEBHOOKS), 'schema.WebhookList.1'),
  other('a limit over 100 accepted', limitClamped, list(POLICIES), 'invalid-parameters', 'param.Limit.1'),
  other('a cursor never issued read as a position', madeUpCursorCrashes, list(POLICIES), 'pagination-rules', 'pagination.4'),
  other('a status filter in another case taken as its value', filterCaseFolded, list(FINDINGS), 'invalid-parameters', 'listFindings.3'),
  other(
    'an unknown query parameter beside an invalid one reported with an empty pointer',
    unknownBesideOthers(() => ''),
    list(POLICIES),
    'invalid-parameters',
    'schema.ProblemError.2',
  ),
  other(
    'an unknown query parameter beside an invalid one left out of errors',
    unknownBesideOthers(() => undefined),
    list(POLICIES),
    'invalid-parameters',
    'errors.2',
  ),
  pagination(POLICIES, 'the cursor parameter ignored', cursorIgnored(POLICIES), 'param.Cursor.1'),
  other('a first page without cursor refused', cursorRequired, list(POLICIES), 'pagination-rules', 'param.Cursor.2'),
  filterIgnored(POLICIES, 'enabled', 'param.EnabledFilter.1'),
  filterIgnored(POLICIES, 'severity', 'param.SeverityFilter.1'),
  idempotency('Idempotency-Key ignored', withoutRequestHeader('idempotency-key'), 'param.IdempotencyKey.2'),
  // A store whose key column holds 64 characters: long keys alike in their first 64 are one key.
  idempotency(
    'Idempotency-Keys cut to 64 characters',
    requestHeader('idempotency-key', (value) => value?.slice(0, 64)),
    'param.IdempotencyKey.2',
  ),
  malformedIdNotFound(POLICIES, 'param.PolicyIdPath.2'),
  {
    name: 'a policy id whose percent-encoding is not UTF-8 answered 404',
    fault: all(
      status({ method: 'GET', path: /%C3%28$/, status: 400 }, 404),
      field({ method: 'GET', path: /%C3%28$/, status: 404 }, (json) => void (json.status = 404)),
    ),
    subject: read(POLICIES),
    check: 'invalid-parameters',
    rule: 'param.PolicyIdPath.2',
  },
  lifecycle(POLICIES, 'If-None-Match ignored', notModifiedIgnored, 'param.IfNoneMatch.1'),
  lifecycle(POLICIES, 'If-Match ignored on updates', withoutRequestHeader('if-match'), 'param.IfMatch.1'),
  malformedIdNotFound(FINDINGS, 'param.FindingIdPath.2'),
  malformedIdNotFound(WEBHOOKS, 'param.WebhookIdPath.2'),
  lifecycle(POLICIES, 'an ETag that does not change on update', etagKeptOnUpdate, 'header.ETag.1'),
  lifecycle(POLICIES, 'If-None-Match ignored, for the ETag', notModifiedIgnored, 'header.ETag.2'),
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
