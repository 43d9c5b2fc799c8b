// The rule faults of what the service stores and lists: a finding's times and policy, a policy
// deleted while in use or always compliant, a PUT that merges or drops a secret, a secret echoed,
// a default page size and a cursor taken with other filters.
import { asJson } from './delivery-faults.ts';
import { all, answer, field, jsonAnswer, requestBody, requestPath } from './fault-dsl.ts';
import { editJson, type Fault } from './fault-proxy.ts';

const ITEM = /^\/v1\/policies\/pol_[^/?]+$/;
const FINDING_ITEM = /^\/v1\/findings\/fnd_[^/?]+$/;
const WEBHOOK_ITEM = /^\/v1\/webhooks\/whk_[^/?]+$/;
const UNKNOWN_POLICY = 'pol_00000000000000000000000000';

export const resolvedAtKeptOnReopen = field({ method: 'PUT', path: FINDING_ITEM, status: 200 }, (json) => {
  if (json.status === 'open' && json.resolved_at === null) json.resolved_at = '2026-01-01T00:00:00Z';
});
export const unknownPolicyAccepted = requestBody({ path: /^\/v1\/findings/ }, (json) => {
  if (json.policy_id === UNKNOWN_POLICY) json.policy_id = null;
});
/** Seen times taken in either order (the service sorts them instead of refusing). */
export const seenTimesInAnyOrder = requestBody({ method: 'POST', path: /^\/v1\/findings$/ }, (json) => {
  const [first, last] = [json.first_seen_at, json.last_seen_at];
  if (typeof first === 'string' && typeof last === 'string' && last < first) [json.first_seen_at, json.last_seen_at] = [last, first];
});
export const policyDeletedWhileInUse = answer({ method: 'DELETE', path: ITEM, status: 409 }, () => jsonAnswer(204));
export const alwaysCompliant = field({ method: 'GET', path: /^\/v1\/policies/, status: 200 }, (json) => {
  for (const item of (json.data as Record<string, unknown>[] | undefined) ?? [json]) item.compliance_status = 'compliant';
});
/** A PUT that merges into the resource (PATCH semantics): omitted fields keep the values they had. */
export function putKeepsOmittedFields(): Fault {
  const last = new Map<string, Record<string, unknown>>();
  return all(
    answer({ method: 'POST', path: /^\/v1\/policies/, status: 201 }, (request, response) => {
      const location = response.headers.location;
      if (location) {
        const { id: _id, ...rest } = asJson(request.body);
        last.set(new URL(location, 'http://x').pathname, rest);
      }
      return undefined;
    }),
    requestBody({ method: 'PUT', path: ITEM }, (json, path) => Object.assign(json, { ...last.get(path.split('?')[0]!), ...json })),
  );
}
export const putWithoutSecretRemovesIt = requestBody({ method: 'PUT', path: WEBHOOK_ITEM }, (json) => {
  if (!('secret' in json)) json.secret = null;
});
/** Webhook reads echo the secret the webhook was created or updated with. */
export function secretEchoed(): Fault {
  const secrets = new Map<string, unknown>();
  return answer({}, (request, response) => {
    const sent = request.body.length > 0 && request.path.startsWith('/v1/webhooks') ? asJson(request.body).secret : undefined;
    if (typeof sent === 'string' && response.status < 300) secrets.set(String(asJson(response.body).id), sent);
    if (request.method !== 'GET' || !WEBHOOK_ITEM.test(request.path) || response.status !== 200) return undefined;
    return editJson(response, (json) => {
      if (secrets.has(String(json.id))) json.secret = secrets.get(String(json.id));
    });
  });
}
export const defaultLimitTen = requestPath((path, method) =>
  method === 'GET' && /^\/v1\/policies(\?|$)/.test(path) && !/[?&]limit=/.test(path)
    ? `${path}${path.includes('?') ? '&' : '?'}limit=10`
    : path,
);
export const cursorAcceptedWithOtherFilters = answer({ method: 'GET', path: /[?&]cursor=/, status: 400 }, () =>
  jsonAnswer(200, { data: [], next_cursor: null }),
);
