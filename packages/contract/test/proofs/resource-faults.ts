// The faults of the resources rules' proofs (resources.ts and resource-states.ts): each makes the
// reference server break one rule the document states; and the subjects the checks run for.
import type { RuleId } from '../../src/kit/rules/catalogue.ts';
import { all, answer, deliveries, field, header, receiverAnswer, requestBody, requestHeader, requestPath } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import type { RuleProof } from '../prove.ts';

export const FINDING_ITEM = /^\/v1\/findings\/fnd_[^/?]+$/;
export const WEBHOOK_ITEM = /^\/v1\/webhooks\/whk_[^/?]+$/;
export const POLICY_ITEM = /^\/v1\/policies\/pol_[^/?]+$/;
export const FINDINGS_PUT = 'updateFinding (PUT /v1/findings/{id})';
export const POLICY_READ = 'getPolicy (GET /v1/policies/{id})';
export type Json = Record<string, unknown>;
export const sent = (request: { body: Buffer }): Json =>
  request.body.length > 0 ? (JSON.parse(request.body.toString('utf8')) as Json) : {};
export const reasonOf = (json: Json) => (json.resolution as Json | null | undefined)?.reason;

/** A finding PUT the service accepts (200, the finding unchanged) when `refused` picks the body it should refuse. */
export function findingPutAccepted(refused: (body: Json) => boolean): Fault {
  return answer({ method: 'PUT', path: FINDING_ITEM, status: 400 }, async (request, _response, upstream) => {
    if (!refused(sent(request))) return undefined;
    const now = await upstream('GET', request.path, { authorization: request.headers.authorization ?? '' });
    return { status: 200, headers: { ...now.headers }, body: now.body };
  });
}

/** Edits the finding a PUT answers when it moved to `to`. */
export const findingPutAnswer = (to: string, edit: (json: Json) => void) =>
  field({ method: 'PUT', path: FINDING_ITEM, status: 200 }, (json, request) => {
    if (sent(request).status === to) edit(json);
  });

/** A policy reads compliant while none of its findings is `open` (an in-progress one left out). */
export const inProgressCountsAsCompliant = answer(
  { method: 'GET', path: POLICY_ITEM, status: 200 },
  async (request, response, upstream) => {
    const id = request.path.split('/').pop()!;
    const open = await upstream('GET', `/v1/findings?policy_id=${id}&status=open&limit=1`, {
      authorization: request.headers.authorization ?? '',
    });
    const none = (JSON.parse(open.body.toString('utf8')) as { data?: unknown[] }).data?.length === 0;
    return none ? field({}, (json) => void (json.compliance_status = 'compliant')).response!(request, response, upstream) : undefined;
  },
);

/** Once a finding of a policy was deleted, the policy keeps reading non_compliant. */
export function deleteLeavesNonCompliant(): Fault {
  const policyOf = new Map<string, string>();
  const touched = new Set<string>();
  const remember = field({ method: 'POST', path: /^\/v1\/findings$/, status: 201 }, (json) => {
    if (typeof json.policy_id === 'string') policyOf.set(`/v1/findings/${String(json.id)}`, json.policy_id);
  });
  const deleted = answer({ method: 'DELETE', status: 204 }, (request) => {
    const policy = policyOf.get(request.path);
    if (policy) touched.add(policy);
    return undefined;
  });
  const stale = field({ method: 'GET', path: POLICY_ITEM, status: 200 }, (json) => {
    if (touched.has(String(json.id))) json.compliance_status = 'non_compliant';
  });
  return all(remember, deleted, stale);
}

const withoutBody = ({ 'content-type': _type, ...rest }: Record<string, string>) => rest;

/** A delete the service answers 204 without deleting anything. */
export const deleteDoesNothing = all(
  requestPath((path, method) => (method === 'DELETE' ? path.replace(/_[0-9a-z]{26}$/, '_00000000000000000000000000') : path)),
  answer({ method: 'DELETE', status: 404 }, (request, response) =>
    request.path.endsWith('_00000000000000000000000000')
      ? undefined
      : { status: 204, headers: withoutBody(response.headers), body: Buffer.alloc(0) },
  ),
);

/** A delete that ignores If-Match: a 412 is redone without the precondition. */
export const deleteIgnoresIfMatch = answer({ method: 'DELETE', status: 412 }, (request, _response, upstream) =>
  upstream('DELETE', request.path, { authorization: request.headers.authorization ?? '' }),
);

/** Every If-Match compared with a tag no representation has. */
export const ifMatchNeverMatches = requestHeader('if-match', () => '"never"');
/** An update answers the ETag the client sent, not the new representation's. */
export const oldTagAnswered = (item: RegExp) =>
  header({ method: 'PUT', path: item, status: 200 }, 'etag', (value, request) => request.headers['if-match'] ?? value);

/** The status of each finding as the service last answered it, and a 409 for the moves `refuse` picks. */
export function findingMovesRefused(refuse: (from: string, to: string) => boolean): () => Fault {
  return () => {
    const statusOf = new Map<string, string>();
    return answer({}, (request, response) => {
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
    });
  };
}

/** Every status change the service should refuse, accepted (the finding answered as it is). */
export const anyMoveAccepted = answer({ method: 'PUT', path: FINDING_ITEM, status: 409 }, (request, _response, upstream) =>
  upstream('GET', request.path, { authorization: request.headers.authorization ?? '' }),
);

/** A PUT to `collection`'s items that keeps `fields` the body omits at the values they had. */
export function putKeeps(collection: string, fields: string[]): () => Fault {
  return () => {
    const last = new Map<string, Json>();
    const item = new RegExp(`^${collection}/[^/?]+$`);
    return all(
      requestBody({ method: 'PUT', path: item }, (json, path) => {
        const known = last.get(path) ?? {};
        for (const name of fields) if (!(name in json) && name in known) json[name] = known[name];
      }),
      answer({}, (request, response) => {
        if (response.status < 300 && request.path.startsWith(collection) && /json/.test(response.headers['content-type'] ?? '')) {
          const json = JSON.parse(response.body.toString('utf8')) as Json;
          if (typeof json.id === 'string') last.set(`${collection}/${json.id}`, json);
        }
        return undefined;
      }),
    );
  };
}

/** Webhook reads that say `disabled_reason` is `reason` whenever the webhook is disabled. */
export const disabledReads = (reason: string | null) =>
  field({ method: 'GET', path: WEBHOOK_ITEM, status: 200 }, (json) => {
    if (json.enabled === false) json.disabled_reason = reason;
  });

/** A policy delete refused only while an `open` finding references it (an in-progress one does not count). */
export function inProgressDoesNotBlock(): Fault {
  const statusOf = new Map<string, { policy: unknown; status: unknown }>();
  return all(
    answer({ path: /^\/v1\/findings/ }, (_request, response) => {
      const json = /json/.test(response.headers['content-type'] ?? '') ? (JSON.parse(response.body.toString('utf8')) as Json) : {};
      if (response.status < 300 && typeof json.id === 'string') statusOf.set(json.id, { policy: json.policy_id, status: json.status });
      return undefined;
    }),
    answer({ method: 'DELETE', path: POLICY_ITEM, status: 409 }, (request, response) => {
      const policy = request.path.split('/').pop();
      const referencing = [...statusOf.values()].filter((finding) => finding.policy === policy);
      if (referencing.some((finding) => finding.status === 'open')) return undefined;
      return { status: 204, headers: withoutBody(response.headers), body: Buffer.alloc(0) };
    }),
  );
}

/** Webhook reads carry the secret the webhook was created with, in a header of their own. */
export function secretInHeader(): Fault {
  const secrets = new Map<string, string>();
  return all(
    answer({ method: 'POST', status: 201 }, (request, response) => {
      const secret = sent(request).secret;
      if (typeof secret === 'string') secrets.set(String((JSON.parse(response.body.toString('utf8')) as Json).id), secret);
      return undefined;
    }),
    header({ method: 'GET' }, 'x-webhook-secret', (value, request) => secrets.get(request.path.split('/').pop() ?? '') ?? value),
  );
}

/** Policy names enforced unique: a second create with a name already taken is refused with 409. */
export function uniqueNames(): Fault {
  const taken = new Set<unknown>();
  return answer({ method: 'POST', path: /^\/v1\/policies$/, status: 201 }, (request, response) => {
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
  });
}

/** A policy PUT that writes the compliance_status the client sent (instead of refusing the unknown field). */
export const complianceWritten = all(
  requestBody({ method: 'PUT', path: POLICY_ITEM }, (json) => void delete json.compliance_status),
  field({ method: 'PUT', path: POLICY_ITEM, status: 200 }, (json, request) => {
    const written = sent(request).compliance_status;
    if (written !== undefined) json.compliance_status = written;
  }),
);

/** A service that follows a receiver's redirect: the delivery is sent again to the Location it names. */
export function followsRedirects(): Fault {
  let last: { headers: Record<string, string>; body: Buffer } | undefined;
  return all(
    deliveries((delivery) => (last = delivery)),
    receiverAnswer((answered) => {
      const location = answered.headers.location;
      if (answered.status >= 300 && answered.status < 400 && location && last)
        void fetch(location, { method: 'POST', headers: last.headers, body: new Uint8Array(last.body) }).catch(() => undefined);
      return answered;
    }),
  );
}

export const POLICY_CREATE = 'createPolicy (POST /v1/policies)';
export const FINDING_CREATE = 'createFinding (POST /v1/findings)';
export const WEBHOOK_CREATE = 'createWebhook (POST /v1/webhooks)';
export const CREATES = [POLICY_CREATE, FINDING_CREATE, WEBHOOK_CREATE] as const;
export const DELETES = [
  'deletePolicy (DELETE /v1/policies/{id})',
  'deleteFinding (DELETE /v1/findings/{id})',
  'deleteWebhook (DELETE /v1/webhooks/{id})',
];

/** One proof per resource: the same fault, the subject and rule of each. */
export const perResource = (
  name: string,
  fault: Fault,
  check: RuleProof['check'],
  subjects: readonly string[],
  rules: RuleId[],
): RuleProof[] => rules.map((rule, i) => ({ name, fault, subject: subjects[i]!, check, rule }));
