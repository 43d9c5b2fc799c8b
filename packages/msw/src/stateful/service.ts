// The stateful mode: the 15 operations over an in-memory copy of the service's data, with the
// reference server's own domain rules (server/domain/): replace semantics and defaults, the
// finding life cycle and its `409`, a finding's policy link, `policy-in-use`, derived compliance,
// secret rotation, ETags with If-Match / If-None-Match, keyset cursors, Idempotency-Key replays.
// Only the storage differs.

import type { OpenApiDocument } from 'secmon-api/src/document';
import { invalidPartsDetail, type ProblemKind, problem } from '../../../../common/problems.ts';
import type { components } from '../../../../generated/schema.d.ts';
import type { DomainError } from '../../../../server/domain/errors.ts';
import { etagOf, ifMatchSatisfied, ifNoneMatchHits } from '../../../../server/domain/etag.ts';
import { newFinding, policyLinkRefusal, updatedFinding } from '../../../../server/domain/findings.ts';
import { requestFingerprint, reusedKeyDetail } from '../../../../server/domain/idempotency.ts';
import { type IdPrefix, newId } from '../../../../server/domain/ids.ts';
import { deletionRefusal, newPolicy, replacedPolicy } from '../../../../server/domain/policies.ts';
import { newWebhook, replacedWebhook, rotatedSecrets } from '../../../../server/domain/webhooks.ts';
import { type Answer, problemAnswer } from '../answer.ts';
import type { CheckedRequest } from '../request-check.ts';
import { type Filters, pageOf, policyView, type Records, seeded, webhookView } from './records.ts';

type Schemas = components['schemas'];

export interface StatefulService {
  answer(request: Request, checked: CheckedRequest): Answer;
  reset(): void;
}

const NOUNS = { policies: 'policy', findings: 'finding', webhooks: 'webhook' } as const;
const PREFIXES: Record<keyof typeof NOUNS, IdPrefix> = { policies: 'pol', findings: 'fnd', webhooks: 'whk' };
type Collection = keyof typeof NOUNS;

export function statefulService(doc: OpenApiDocument): StatefulService {
  let records = seeded(doc);

  const views: { [C in Collection]: (id: string) => object | undefined } = {
    policies: (id) => {
      const policy = records.policies.get(id);
      return policy && policyView(records, policy);
    },
    findings: (id) => records.findings.get(id),
    webhooks: (id) => {
      const webhook = records.webhooks.get(id);
      return webhook && webhookView(webhook);
    },
  };

  function answer(request: Request, checked: CheckedRequest): Answer {
    const path = new URL(request.url).pathname;
    const collection = checked.template.split('/')[2] as Collection;
    const id = checked.params.id;
    const fail = (kind: ProblemKind, detail: string) => problemAnswer(problem(kind, detail, path));
    const refusal = (error: DomainError) =>
      error.kind === 'validation'
        ? problemAnswer(problem('validation-error', invalidPartsDetail(1), path, [{ pointer: error.pointer, message: error.message }]))
        : fail(error.kind, error.detail);
    const resource = (status: 200 | 201, body: { id: string }): Answer => ({
      status,
      headers: { etag: etagOf(body), ...(status === 201 ? { location: `/v1/${collection}/${body.id}` } : {}) },
      body,
    });
    const now = new Date();
    const at = now.toISOString();

    if (id === undefined && request.method === 'GET') {
      const page = list(records, collection, checked.query);
      return page
        ? { status: 200, headers: {}, body: page }
        : refusal({ kind: 'validation', pointer: '/query/cursor', message: 'is not a cursor issued for this list and filters' });
    }
    if (id === undefined) {
      const key = request.headers.get('idempotency-key');
      const stored = key === null ? undefined : `${request.headers.get('authorization')} ${key}`;
      const fingerprint = requestFingerprint(request.method, path, checked.body);
      const first = stored === undefined ? undefined : records.creates.get(stored);
      if (first && first.fingerprint !== fingerprint) return fail('idempotency-key-reused', reusedKeyDetail(key!));
      if (first) return { ...first, headers: { ...first.headers, 'idempotent-replayed': 'true' } };
      const created = create(records, collection, newId(PREFIXES[collection], now.getTime()), checked.body, at);
      if ('kind' in created) return refusal(created);
      const answer = resource(201, views[collection](created.id) as { id: string });
      if (stored !== undefined) records.creates.set(stored, { fingerprint, ...answer });
      return answer;
    }
    const current = views[collection](id);
    if (current === undefined) return fail('not-found', `No ${NOUNS[collection]} has the id ${id}.`);
    const etag = etagOf(current);
    if (request.method === 'GET') {
      return ifNoneMatchHits(request.headers.get('if-none-match') ?? undefined, etag)
        ? { status: 304, headers: { etag } }
        : resource(200, current as { id: string });
    }
    if (!ifMatchSatisfied(request.headers.get('if-match') ?? undefined, etag)) {
      return fail('precondition-failed', 'The resource has changed since the ETag you sent; fetch it again.');
    }
    if (request.method === 'PUT') {
      const error = replace(records, collection, id, checked.body, at);
      return error ? refusal(error) : resource(200, views[collection](id) as { id: string });
    }
    const error = remove(records, collection, id, at);
    return error ? refusal(error) : { status: 204, headers: {} };
  }

  return { answer, reset: () => (records = seeded(doc)) };
}

function list(records: Records, collection: Collection, query: Record<string, unknown>) {
  const filters: Filters = Object.fromEntries(
    Object.entries(query).filter(([name]) => name !== 'limit' && name !== 'cursor') as [string, string | number | boolean][],
  );
  const matches = (item: Record<string, unknown>) =>
    Object.entries(filters).every(([name, value]) =>
      name === 'event' ? (item.events as unknown[]).includes(value) : item[name] === value,
    );
  const items =
    collection === 'policies'
      ? [...records.policies.values()].map((policy) => policyView(records, policy))
      : collection === 'findings'
        ? [...records.findings.values()]
        : [...records.webhooks.values()].map(webhookView);
  return pageOf(
    items.filter((item) => matches(item as unknown as Record<string, unknown>)),
    collection,
    filters,
    query,
  );
}

function create(records: Records, collection: Collection, id: string, body: unknown, at: string): { id: string } | DomainError {
  if (collection === 'policies') {
    const policy = newPolicy(id, body as Schemas['PolicyWrite'], at);
    records.policies.set(id, policy);
    return policy;
  }
  if (collection === 'findings') {
    const finding = newFinding(id, body as Schemas['FindingCreate'], at);
    if ('kind' in finding) return finding;
    const refused = policyLinkRefusal(finding, finding.policy_id !== null && records.policies.has(finding.policy_id));
    if (refused) return refused;
    records.findings.set(id, finding);
    return finding;
  }
  const { secret, ...webhook } = newWebhook(id, body as Schemas['WebhookCreate'], at);
  records.webhooks.set(id, { ...webhook, disabled_reason: null, secrets: { secret, previousSecret: null, previousSecretExpiresAt: null } });
  return webhook;
}

function replace(records: Records, collection: Collection, id: string, body: unknown, at: string): DomainError | undefined {
  if (collection === 'policies') {
    records.policies.set(id, replacedPolicy(records.policies.get(id)!, body as Schemas['PolicyWrite'], at));
    return undefined;
  }
  if (collection === 'findings') {
    const updated = updatedFinding(records.findings.get(id)!, body as Schemas['FindingUpdate'], at);
    if ('kind' in updated) return updated;
    const refused = policyLinkRefusal(updated, updated.policy_id !== null && records.policies.has(updated.policy_id));
    if (refused) return refused;
    records.findings.set(id, updated);
    return undefined;
  }
  const stored = records.webhooks.get(id)!;
  const { secret, ...replacement } = replacedWebhook(webhookView(stored), body as Schemas['WebhookUpdate'], at);
  records.webhooks.set(id, { ...stored, ...replacement, secrets: rotatedSecrets(stored.secrets, secret) });
  return undefined;
}

function remove(records: Records, collection: Collection, id: string, at: string): DomainError | undefined {
  if (collection === 'policies') {
    const refused = deletionRefusal(policyView(records, records.policies.get(id)!));
    if (refused) return refused;
    // Closed findings keep their record, unlinked, as in the server's store.
    for (const finding of records.findings.values())
      if (finding.policy_id === id) records.findings.set(finding.id, { ...finding, policy_id: null, updated_at: at });
    records.policies.delete(id);
    return undefined;
  }
  records[collection].delete(id);
  return undefined;
}
