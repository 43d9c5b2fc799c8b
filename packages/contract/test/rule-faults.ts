// The rule faults: one fault per rule the document states in words, each breaking exactly that rule
// on the reference server; faults.test.ts runs each against the one check that judges the rule, and
// the proof ledger (proofs.test.ts) counts the rules they prove.
import type { KitOptions } from '../src/kit/context.ts';
import type { CheckName } from '../src/kit/registry.ts';
import type { RuleId } from '../src/kit/rules/catalogue.ts';
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
import { PROBLEM_TYPES } from './fault-dsl.ts';
import { editJson, type Fault } from './fault-proxy.ts';

const ITEM = /^\/v1\/policies\/pol_[^/?]+$/;

const FINDING_ITEM = /^\/v1\/findings\/fnd_[^/?]+$/;
const WEBHOOK_ITEM = /^\/v1\/webhooks\/whk_[^/?]+$/;
const UNKNOWN_POLICY = 'pol_00000000000000000000000000';

const resolvedAtKeptOnReopen: Fault = {
  response: (request, response) =>
    request.method === 'PUT' && FINDING_ITEM.test(request.path) && response.status === 200
      ? editJson(response, (json) => {
          if (json.status === 'open' && json.resolved_at === null) json.resolved_at = '2026-01-01T00:00:00Z';
        })
      : undefined,
};
const unknownPolicyAccepted: Fault = {
  request: (method, path, body) => {
    if (!(method === 'POST' || method === 'PUT') || !path.startsWith('/v1/findings') || body.length === 0) return body;
    const json = asJson(body);
    return json.policy_id === UNKNOWN_POLICY ? asBody({ ...json, policy_id: null }) : body;
  },
};
/** Seen times taken in either order (the service sorts them instead of refusing). */
const seenTimesInAnyOrder: Fault = {
  request: (method, path, body) => {
    if (method !== 'POST' || path !== '/v1/findings' || body.length === 0) return body;
    const json = asJson(body) as { first_seen_at?: string; last_seen_at?: string };
    const { first_seen_at: first, last_seen_at: last } = json;
    return first && last && last < first ? asBody({ ...json, first_seen_at: last, last_seen_at: first }) : body;
  },
};
const policyDeletedWhileInUse: Fault = {
  response: (request, response) =>
    request.method === 'DELETE' && ITEM.test(request.path) && response.status === 409
      ? { status: 204, headers: {}, body: Buffer.alloc(0) }
      : undefined,
};
const alwaysCompliant: Fault = {
  response: (request, response) =>
    request.method === 'GET' && request.path.startsWith('/v1/policies') && response.status === 200
      ? editJson(response, (json) => {
          for (const item of (json.data as Record<string, unknown>[] | undefined) ?? [json]) item.compliance_status = 'compliant';
        })
      : undefined,
};
const noComplianceChangedOnDelete: Fault = {
  delivery: (headers, body) => {
    const json = asJson(body) as { event?: string; data?: { finding_id?: unknown } };
    return json.event === 'compliance.changed' && json.data?.finding_id === null ? undefined : { headers, body };
  },
};
const complianceChangedWithoutChange: Fault = {
  delivery: (headers, body) => {
    const json = asJson(body) as { event?: string; data?: Record<string, unknown> };
    if (json.event === 'compliance.changed' && json.data) json.data.previous_status = json.data.current_status;
    return { headers, body: asBody(json) };
  },
};
/** A PUT that merges into the resource (PATCH semantics): omitted fields keep the values they had. */
function putKeepsOmittedFields(): Fault {
  const last = new Map<string, Record<string, unknown>>();
  return {
    request: (method, path, body) => {
      if (method !== 'PUT' || !ITEM.test(path) || body.length === 0) return body;
      return asBody({ ...last.get(path.split('?')[0]!), ...asJson(body) });
    },
    response: (request, response) => {
      const location = response.headers.location;
      if (request.method === 'POST' && response.status === 201 && location && request.path.startsWith('/v1/policies')) {
        const { id: _id, ...rest } = asJson(request.body);
        last.set(new URL(location, 'http://x').pathname, rest);
      }
      return undefined;
    },
  };
}
const putWithoutSecretRemovesIt: Fault = {
  request: (method, path, body) => {
    if (method !== 'PUT' || !WEBHOOK_ITEM.test(path) || body.length === 0) return body;
    const json = asJson(body);
    return 'secret' in json ? body : asBody({ ...json, secret: null });
  },
};
/** Webhook reads echo the secret the webhook was created or updated with. */
function secretEchoed(): Fault {
  const secrets = new Map<string, unknown>();
  return {
    response: (request, response) => {
      const sent = request.body.length > 0 && request.path.startsWith('/v1/webhooks') ? asJson(request.body).secret : undefined;
      if (typeof sent === 'string' && response.status < 300) secrets.set(String(asJson(response.body).id), sent);
      if (request.method !== 'GET' || !WEBHOOK_ITEM.test(request.path) || response.status !== 200) return undefined;
      return editJson(response, (json) => {
        if (secrets.has(String(json.id))) json.secret = secrets.get(String(json.id));
      });
    },
  };
}
const defaultLimitTen: Fault = {
  path: (method, path) =>
    method === 'GET' && /^\/v1\/policies(\?|$)/.test(path) && !/[?&]limit=/.test(path)
      ? `${path}${path.includes('?') ? '&' : '?'}limit=10`
      : path,
};
const cursorAcceptedWithOtherFilters: Fault = {
  response: (request, response) =>
    request.method === 'GET' && /[?&]cursor=/.test(request.path) && response.status === 400
      ? { status: 200, headers: { 'content-type': 'application/json' }, body: asBody({ data: [], next_cursor: null }) }
      : undefined,
};
const conflictTypeForEvery409: Fault = {
  response: (_request, response) =>
    response.status === 409 ? editJson(response, (json) => void (json.type = `${PROBLEM_TYPES}conflict`)) : undefined,
};
const keyEchoedIn401: Fault = {
  response: (request, response) =>
    response.status === 401
      ? editJson(response, (json) => void (json.detail = `Unknown API key: ${request.headers.authorization ?? ''}`))
      : undefined,
};
const validationWithoutErrors: Fault = {
  response: (_request, response) =>
    response.status === 400 && response.headers['content-type']?.includes('problem')
      ? editJson(response, (json) => void delete json.errors)
      : undefined,
};
const noRateLimitOnUnknownRoutes: Fault = {
  response: (_request, response) => {
    if (response.status !== 404) return undefined;
    const { ratelimit: _r, 'ratelimit-policy': _p, ...headers } = response.headers;
    return { ...response, headers };
  },
};
const noPreflight: Fault = {
  response: (request, response) =>
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
};

const FINDINGS_PUT = 'updateFinding (PUT /v1/findings/{id})';
export const CREATED = 'findingCreated (webhook finding.created)';
export const RULE_FAULTS: [name: string, fault: Fault, subject: string, check: CheckName, rule: RuleId, options?: Partial<KitOptions>][] = [
  ['resolved_at kept after reopening', resolvedAtKeptOnReopen, FINDINGS_PUT, 'finding-lifecycle', 'updateFinding.3'],
  ['last_seen_at before first_seen_at accepted', seenTimesInAnyOrder, FINDINGS_PUT, 'finding-lifecycle', 'schema.FindingCreate.2'],
  ['an unknown policy_id accepted', unknownPolicyAccepted, 'createFinding (POST /v1/findings)', 'references', 'schema.FindingCreate.3'],
  [
    'a policy deleted while an open finding references it',
    policyDeletedWhileInUse,
    'deletePolicy (DELETE /v1/policies/{id})',
    'policy-in-use',
    'deletePolicy.2',
  ],
  ['compliance_status always compliant', alwaysCompliant, 'getPolicy (GET /v1/policies/{id})', 'compliance', 'createFinding.2'],
  [
    'no compliance.changed when a finding is deleted',
    noComplianceChangedOnDelete,
    'getPolicy (GET /v1/policies/{id})',
    'compliance',
    'updateFinding.4',
    { eventTimeoutMs: 2_000 },
  ],
  [
    'compliance.changed with previous_status equal to current_status',
    complianceChangedWithoutChange,
    'getPolicy (GET /v1/policies/{id})',
    'compliance',
    'complianceChanged.1',
  ],
  [
    'a policy PUT keeping omitted fields',
    putKeepsOmittedFields(),
    'updatePolicy (PUT /v1/policies/{id})',
    'replace-semantics',
    'updatePolicy.1',
  ],
  [
    'a webhook PUT without secret removing it',
    putWithoutSecretRemovesIt,
    'updateWebhook (PUT /v1/webhooks/{id})',
    'replace-semantics',
    'schema.WebhookUpdate.2',
  ],
  ['webhook secrets echoed on reads', secretEchoed(), 'getWebhook (GET /v1/webhooks/{id})', 'secrets', 'authentication.4'],
  ['a default limit of 10', defaultLimitTen, 'listPolicies (GET /v1/policies)', 'pagination-rules', 'pagination.2'],
  [
    'a cursor accepted with other filters',
    cursorAcceptedWithOtherFilters,
    'listPolicies (GET /v1/policies)',
    'pagination-rules',
    'pagination.4',
  ],
  ['one problem type for every 409', conflictTypeForEvery409, 'listPolicies (GET /v1/policies)', 'problem-catalogue', 'errors.15'],
  ['the API key echoed in a 401 detail', keyEchoedIn401, 'listPolicies (GET /v1/policies)', 'response-audit', 'authentication.4'],
  ['validation problems without errors', validationWithoutErrors, 'listPolicies (GET /v1/policies)', 'response-audit', 'errors.2'],
  [
    'no RateLimit headers on unknown routes',
    noRateLimitOnUnknownRoutes,
    'listPolicies (GET /v1/policies)',
    'response-audit',
    'rate-limits.2',
  ],
  [
    'no CORS preflight',
    noPreflight,
    'listPolicies (GET /v1/policies)',
    'cors',
    'browser-clients-cors.1',
    { corsOrigin: 'http://localhost:5173' },
  ],
  ['events sent to disabled webhooks', disabledWebhooksReceive, CREATED, 'delivery-semantics', 'schema.WebhookCreate.2'],
  [
    'a kit-caused event sent to a webhook that says it is disabled',
    disabledButDelivering,
    CREATED,
    'delivery-attribution',
    'schema.WebhookCreate.2',
  ],
  [
    'a test event raised for one webhook sent to every subscriber',
    targetIgnored,
    CREATED,
    'delivery-attribution',
    'test-support-not-part-of-the-v1-contract.4',
  ],
  ['finding.resolved also sent when a finding is suppressed', resolvedSentOnSuppress, CREATED, 'delivery-semantics', 'findingResolved.2'],
  ['one X-Service-Delivery shared by several webhooks', oneDeliveryIdForAllWebhooks, CREATED, 'delivery-semantics', 'delivery-headers.3'],
  [
    'a new X-Service-Delivery on every retry',
    newDeliveryIdOnRetry,
    CREATED,
    'delivery-retry',
    'delivery-headers.3',
    { skipRetryTiming: 'compressed schedule' },
  ],
  ['410 Gone not disabling the webhook', goneNotDisabling, CREATED, 'endpoint-gone', 'delivery-and-retries.3', { eventTimeoutMs: 2_000 }],
  ['a webhook-id other than X-Service-Delivery', webhookIdNotDeliveryId, CREATED, 'delivery', 'param.StandardIdHeader.1'],
  ['a webhook-signature no secret made', wrongStandardSignature, CREATED, 'delivery', 'param.StandardSignatureHeader.1'],
  ['a webhook-timestamp 10 minutes old', staleTimestamp, CREATED, 'delivery', 'param.StandardTimestampHeader.1'],
  ['one webhook-signature entry after the secret was replaced', oneEntryAfterRotation, CREATED, 'secret-rotation', 'rotating-a-secret.1'],
];
