// The rule faults: one fault per rule the document states in words, each breaking exactly that rule
// on the reference server; faults.test.ts runs each against the one check that judges the rule, and
// the proof ledger (proofs.test.ts) counts the rules they prove.
import {
  asBody,
  asJson,
  disabledButDelivering,
  disabledWebhooksReceive,
  goneNotDisabling,
  newDeliveryIdOnRetry,
  oneDeliveryIdForAllWebhooks,
  oneEntryAfterRotation,
  resolvedSentOnSuppress,
  staleTimestamp,
  targetIgnored,
  webhookIdNotDeliveryId,
  wrongStandardSignature,
} from './delivery-faults.ts';
import {
  all,
  answer,
  deliveryJson,
  dropDelivery,
  field,
  header,
  jsonAnswer,
  PROBLEM_TYPES,
  receiverAnswer,
  requestBody,
  requestPath,
} from './fault-dsl.ts';
import { editJson, type Fault } from './fault-proxy.ts';
import type { RuleProof } from './prove.ts';

const ITEM = /^\/v1\/policies\/pol_[^/?]+$/;

const FINDING_ITEM = /^\/v1\/findings\/fnd_[^/?]+$/;
const WEBHOOK_ITEM = /^\/v1\/webhooks\/whk_[^/?]+$/;
const UNKNOWN_POLICY = 'pol_00000000000000000000000000';

const resolvedAtKeptOnReopen = field({ method: 'PUT', path: FINDING_ITEM, status: 200 }, (json) => {
  if (json.status === 'open' && json.resolved_at === null) json.resolved_at = '2026-01-01T00:00:00Z';
});
const unknownPolicyAccepted = requestBody({ path: /^\/v1\/findings/ }, (json) => {
  if (json.policy_id === UNKNOWN_POLICY) json.policy_id = null;
});
/** Seen times taken in either order (the service sorts them instead of refusing). */
const seenTimesInAnyOrder = requestBody({ method: 'POST', path: /^\/v1\/findings$/ }, (json) => {
  const [first, last] = [json.first_seen_at, json.last_seen_at];
  if (typeof first === 'string' && typeof last === 'string' && last < first) [json.first_seen_at, json.last_seen_at] = [last, first];
});
const policyDeletedWhileInUse = answer({ method: 'DELETE', path: ITEM, status: 409 }, () => jsonAnswer(204));
const alwaysCompliant = field({ method: 'GET', path: /^\/v1\/policies/, status: 200 }, (json) => {
  for (const item of (json.data as Record<string, unknown>[] | undefined) ?? [json]) item.compliance_status = 'compliant';
});
const noComplianceChangedOnDelete = dropDelivery(
  (json) => json.event === 'compliance.changed' && (json.data as Record<string, unknown> | undefined)?.finding_id === null,
);
const complianceChangedWithoutChange = deliveryJson('compliance.changed', (json) => {
  const data = json.data as Record<string, unknown> | undefined;
  if (data) data.previous_status = data.current_status;
});
/** A PUT that merges into the resource (PATCH semantics): omitted fields keep the values they had. */
function putKeepsOmittedFields(): Fault {
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
const putWithoutSecretRemovesIt = requestBody({ method: 'PUT', path: WEBHOOK_ITEM }, (json) => {
  if (!('secret' in json)) json.secret = null;
});
/** Webhook reads echo the secret the webhook was created or updated with. */
function secretEchoed(): Fault {
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
const defaultLimitTen = requestPath((path, method) =>
  method === 'GET' && /^\/v1\/policies(\?|$)/.test(path) && !/[?&]limit=/.test(path)
    ? `${path}${path.includes('?') ? '&' : '?'}limit=10`
    : path,
);
const cursorAcceptedWithOtherFilters = answer({ method: 'GET', path: /[?&]cursor=/, status: 400 }, () =>
  jsonAnswer(200, { data: [], next_cursor: null }),
);
const conflictTypeForEvery409 = field({ status: 409 }, (json) => void (json.type = `${PROBLEM_TYPES}conflict`));
const keyEchoedIn401 = field(
  { status: 401 },
  (json, request) => void (json.detail = `Unknown API key: ${request.headers.authorization ?? ''}`),
);
const validationWithoutErrors = field({ status: 400 }, (json) => void delete json.errors);
const noRateLimitOnUnknownRoutes = all(
  header({ status: 404 }, 'ratelimit', () => undefined),
  header({ status: 404 }, 'ratelimit-policy', () => undefined),
);
const noPreflight = answer({}, (request, response) =>
  request.method === 'OPTIONS'
    ? {
        status: 401,
        headers: { 'content-type': 'application/problem+json' },
        body: asBody({ type: `${PROBLEM_TYPES}unauthorized`, title: 'Unauthorized', status: 401 }),
      }
    : response.status < 300
      ? {
          ...response,
          headers: Object.fromEntries(Object.entries(response.headers).filter(([name]) => !name.startsWith('access-control-'))),
        }
      : undefined,
);

const FINDINGS_PUT = 'updateFinding (PUT /v1/findings/{id})';
export const CREATED = 'findingCreated (webhook finding.created)';
/** A receiver's Retry-After taken out of its answer on the way back: the service schedules as if it had none. */
const retryAfterIgnored = receiverAnswer(({ status, headers: { 'retry-after': _dropped, ...headers } }) => ({ status, headers }));

/**
 * A failed-authentication 429 without Retry-After: on a target that allows one failure a minute, a
 * failure is asked again, so the answer is the 429 (the kit's request being the second failure).
 */
const failedAuth429WithoutRetryAfter = answer({}, async (request, response, upstream) => {
  const throttled = response.status === 401 ? await upstream(request.method, request.path, request.headers) : response;
  if (throttled.status !== 429) return undefined;
  const { 'retry-after': _dropped, ...headers } = throttled.headers;
  return { ...throttled, headers };
});

export const RULE_PROOFS: readonly RuleProof[] = [
  {
    name: 'resolved_at kept after reopening',
    fault: resolvedAtKeptOnReopen,
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'updateFinding.3',
  },
  {
    name: 'last_seen_at before first_seen_at accepted',
    fault: seenTimesInAnyOrder,
    subject: FINDINGS_PUT,
    check: 'finding-lifecycle',
    rule: 'schema.FindingCreate.2',
  },
  {
    name: 'an unknown policy_id accepted',
    fault: unknownPolicyAccepted,
    subject: 'createFinding (POST /v1/findings)',
    check: 'references',
    rule: 'schema.FindingCreate.3',
  },
  {
    name: 'a policy deleted while an open finding references it',
    fault: policyDeletedWhileInUse,
    subject: 'deletePolicy (DELETE /v1/policies/{id})',
    check: 'policy-in-use',
    rule: 'deletePolicy.2',
  },
  {
    name: 'compliance_status always compliant',
    fault: alwaysCompliant,
    subject: 'getPolicy (GET /v1/policies/{id})',
    check: 'compliance',
    rule: 'createFinding.2',
  },
  {
    name: 'no compliance.changed when a finding is deleted',
    fault: noComplianceChangedOnDelete,
    subject: 'getPolicy (GET /v1/policies/{id})',
    check: 'compliance',
    rule: 'updateFinding.4',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'compliance.changed with previous_status equal to current_status',
    fault: complianceChangedWithoutChange,
    subject: 'getPolicy (GET /v1/policies/{id})',
    check: 'compliance',
    rule: 'complianceChanged.1',
  },
  {
    name: 'a policy PUT keeping omitted fields',
    fault: putKeepsOmittedFields(),
    subject: 'updatePolicy (PUT /v1/policies/{id})',
    check: 'replace-semantics',
    rule: 'updatePolicy.1',
  },
  {
    name: 'a webhook PUT without secret removing it',
    fault: putWithoutSecretRemovesIt,
    subject: 'updateWebhook (PUT /v1/webhooks/{id})',
    check: 'replace-semantics',
    rule: 'schema.WebhookUpdate.2',
  },
  {
    name: 'webhook secrets echoed on reads',
    fault: secretEchoed(),
    subject: 'getWebhook (GET /v1/webhooks/{id})',
    check: 'secrets',
    rule: 'authentication.4',
  },
  {
    name: 'a default limit of 10',
    fault: defaultLimitTen,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'pagination-rules',
    rule: 'pagination.2',
  },
  {
    name: 'a cursor accepted with other filters',
    fault: cursorAcceptedWithOtherFilters,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'pagination-rules',
    rule: 'pagination.4',
  },
  {
    name: 'one problem type for every 409',
    fault: conflictTypeForEvery409,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'problem-catalogue',
    rule: 'errors.15',
  },
  {
    name: 'the API key echoed in a 401 detail',
    fault: keyEchoedIn401,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'response-audit',
    rule: 'authentication.4',
  },
  {
    name: 'validation problems without errors',
    fault: validationWithoutErrors,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'response-audit',
    rule: 'errors.2',
  },
  {
    name: 'no RateLimit headers on unknown routes',
    fault: noRateLimitOnUnknownRoutes,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'response-audit',
    rule: 'rate-limits.2',
  },
  {
    name: 'no CORS preflight',
    fault: noPreflight,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'cors',
    rule: 'browser-clients-cors.1',
    options: { corsOrigin: 'http://localhost:5173' },
  },
  {
    name: 'events sent to disabled webhooks',
    fault: disabledWebhooksReceive,
    subject: CREATED,
    check: 'delivery-semantics',
    rule: 'schema.WebhookCreate.2',
  },
  {
    name: 'a kit-caused event sent to a webhook that says it is disabled',
    fault: disabledButDelivering,
    subject: CREATED,
    check: 'delivery-attribution',
    rule: 'schema.WebhookCreate.2',
  },
  {
    name: 'a test event raised for one webhook sent to every subscriber',
    fault: targetIgnored,
    subject: CREATED,
    check: 'delivery-attribution',
    rule: 'test-support-not-part-of-the-v1-contract.4',
  },
  {
    name: 'finding.resolved also sent when a finding is suppressed',
    fault: resolvedSentOnSuppress,
    subject: CREATED,
    check: 'delivery-semantics',
    rule: 'findingResolved.2',
  },
  {
    name: 'one X-Service-Delivery shared by several webhooks',
    fault: oneDeliveryIdForAllWebhooks,
    subject: CREATED,
    check: 'delivery-semantics',
    rule: 'delivery-headers.3',
  },
  {
    name: 'a new X-Service-Delivery on every retry',
    fault: newDeliveryIdOnRetry,
    subject: CREATED,
    check: 'delivery-retry',
    rule: 'delivery-headers.3',
    options: { skipRetryTiming: 'compressed schedule' },
  },
  {
    name: '410 Gone not disabling the webhook',
    fault: goneNotDisabling,
    subject: CREATED,
    check: 'endpoint-gone',
    rule: 'delivery-and-retries.3',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'a webhook-id other than X-Service-Delivery',
    fault: webhookIdNotDeliveryId,
    subject: CREATED,
    check: 'delivery',
    rule: 'param.StandardIdHeader.1',
  },
  {
    name: 'a webhook-signature no secret made',
    fault: wrongStandardSignature,
    subject: CREATED,
    check: 'delivery',
    rule: 'param.StandardSignatureHeader.1',
  },
  {
    name: 'a webhook-timestamp 10 minutes old',
    fault: staleTimestamp,
    subject: CREATED,
    check: 'delivery',
    rule: 'param.StandardTimestampHeader.1',
  },
  {
    name: 'one webhook-signature entry after the secret was replaced',
    fault: oneEntryAfterRotation,
    subject: CREATED,
    check: 'secret-rotation',
    rule: 'rotating-a-secret.1',
  },
  {
    name: 'a failed-authentication 429 without Retry-After',
    fault: failedAuth429WithoutRetryAfter,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'unknown-key-401',
    rule: 'rate-limits.5',
    target: { overrides: { authFailuresPerMinute: 1 } },
  },
  {
    name: 'a Retry-After longer than the first wait ignored',
    fault: retryAfterIgnored,
    subject: CREATED,
    check: 'delivery-retry',
    rule: 'delivery-and-retries.4',
    target: { retryScale: 1 },
  },
];
