// The rule faults: one fault per rule the document states in words, each breaking exactly that rule
// on the reference server; faults.test.ts runs each against the one check that judges the rule, and
// the proof ledger (proofs.test.ts) counts the rules they prove.
import {
  conflictTypeForEvery409,
  failedAuth429WithoutRetryAfter,
  keyEchoedIn401,
  noPreflight,
  noRateLimitOnUnknownRoutes,
  validationWithoutErrors,
} from './answer-faults.ts';
import {
  complianceChangedWithoutChange,
  disabledButDelivering,
  disabledWebhooksReceive,
  goneNotDisabling,
  newDeliveryIdOnRetry,
  noComplianceChangedOnDelete,
  oneDeliveryIdForAllWebhooks,
  oneEntryAfterRotation,
  resolvedSentOnSuppress,
  retryAfterIgnored,
  staleTimestamp,
  targetIgnored,
  webhookIdNotDeliveryId,
  wrongStandardSignature,
} from './delivery-faults.ts';
import { receiverAnswer } from './fault-dsl.ts';
import type { Fault } from './fault-proxy.ts';
import type { RuleProof } from './prove.ts';
import {
  alwaysCompliant,
  cursorAcceptedWithOtherFilters,
  defaultLimitTen,
  policyDeletedWhileInUse,
  putKeepsOmittedFields,
  putWithoutSecretRemovesIt,
  resolvedAtKeptOnReopen,
  secretEchoed,
  seenTimesInAnyOrder,
  unknownPolicyAccepted,
} from './stored-faults.ts';

const FINDINGS_PUT = 'updateFinding (PUT /v1/findings/{id})';

export const CREATED = 'findingCreated (webhook finding.created)';

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
  // The service takes the receiver's failures of one kind for successes, so that kind never opens its circuit.
  noCircuitOn(500, 'deviceConnected (webhook device.connected)'),
  noCircuitOn(429, 'deviceDisconnected (webhook device.disconnected)'),
  {
    name: 'a failed probe taken for an answer: the next new delivery sent at once, not after the doubled pause',
    fault: failedProbeTakenForAnswer,
    subject: 'deviceConnected (webhook device.connected)',
    check: 'circuit-breaker',
    rule: 'slow-and-failing-receivers.4',
    target: { retryScale: 1 },
  },
];

/**
 * A service that closes the circuit when a probe fails: the fourth `500` in a row (the circuit
 * check's probe, its retries an hour away) reaches it as `204`, so the fifth event goes at once.
 */
function failedProbeTakenForAnswer(): Fault {
  let failures = 0;
  return receiverAnswer((answered) => (answered.status === 500 && ++failures === 4 ? { status: 204, headers: {} } : answered));
}

/** A service that takes the receiver's `status` answers for successes: three of them in a row open no circuit. */
function noCircuitOn(status: 500 | 429, subject: string): RuleProof {
  return {
    name: `no circuit on ${status}: a new delivery sent at once after three ${status}s in a row`,
    fault: receiverAnswer(({ status: answered, headers }) => ({ status: answered === status ? 204 : answered, headers })),
    subject,
    check: 'circuit-breaker',
    rule: 'slow-and-failing-receivers.4',
    target: { retryScale: 1 },
  };
}
