// Proofs of the resources rules: each fault breaks exactly one rule the document states in words.
import { createHmac } from 'node:crypto';

import { deliveries, deliveryHeader, field, header, requestBody, status } from '../fault-dsl.ts';
import type { RuleProof } from '../prove.ts';
import { CREATED } from '../rule-faults.ts';
import {
  complianceWritten,
  disabledReads,
  FINDING_CREATE,
  FINDINGS_PUT,
  followsRedirects,
  inProgressDoesNotBlock,
  POLICY_CREATE,
  POLICY_READ,
  putKeeps,
  secretInHeader,
  uniqueNames,
  WEBHOOK_CREATE,
  WEBHOOK_ITEM,
} from './resource-faults.ts';
import { STATE_PROOFS } from './resource-states.ts';

export const PROOFS: readonly RuleProof[] = [
  ...STATE_PROOFS,
  {
    name: 'a policy PUT keeping the description it omits',
    fault: putKeeps('/v1/policies', ['description']),
    subject: 'updatePolicy (PUT /v1/policies/{id})',
    check: 'replace-semantics',
    rule: 'schema.Description.2',
  },
  {
    name: 'a policy PUT keeping the frameworks it omits',
    fault: putKeeps('/v1/policies', ['frameworks']),
    subject: 'updatePolicy (PUT /v1/policies/{id})',
    check: 'replace-semantics',
    rule: 'schema.PolicyWrite.6',
  },
  {
    name: 'a policy PUT keeping the enabled flag it omits',
    fault: putKeeps('/v1/policies', ['enabled']),
    subject: 'updatePolicy (PUT /v1/policies/{id})',
    check: 'replace-semantics',
    rule: 'schema.PolicyWrite.2',
  },
  ...(['schema.FindingUpdate.1', 'schema.FindingUpdate.3'] as const).map(
    (rule): RuleProof => ({
      name: 'a finding PUT keeping the policy_id it omits',
      fault: putKeeps('/v1/findings', ['policy_id']),
      subject: FINDINGS_PUT,
      check: 'replace-semantics',
      rule,
    }),
  ),
  {
    name: 'a webhook PUT keeping the enabled flag it omits',
    fault: putKeeps('/v1/webhooks', ['enabled']),
    subject: 'updateWebhook (PUT /v1/webhooks/{id})',
    check: 'replace-semantics',
    rule: 'schema.WebhookUpdate.1',
  },
  {
    name: 'a webhook disabled by its owner reads disabled by the service',
    fault: disabledReads('failing'),
    subject: 'updateWebhook (PUT /v1/webhooks/{id})',
    check: 'replace-semantics',
    rule: 'schema.Webhook.7',
  },
  {
    name: 'a webhook the service disabled reads no reason',
    fault: disabledReads(null),
    subject: CREATED,
    check: 'endpoint-gone',
    rule: 'schema.Webhook.4',
  },
  { name: 'a 410 read as failing', fault: disabledReads('failing'), subject: CREATED, check: 'endpoint-gone', rule: 'schema.Webhook.5' },
  ...(['updateWebhook.2', 'schema.WebhookUpdate.3'] as const).map(
    (rule): RuleProof => ({
      name: 're-enabling keeps disabled_reason',
      fault: field({ method: 'PUT', path: WEBHOOK_ITEM, status: 200 }, (json) => {
        if (json.enabled === true) json.disabled_reason = 'endpoint_gone';
      }),
      subject: CREATED,
      check: 'endpoint-gone',
      rule,
    }),
  ),
  {
    name: 'a policy an in-progress finding references deleted',
    fault: inProgressDoesNotBlock,
    subject: 'deletePolicy (DELETE /v1/policies/{id})',
    check: 'policy-in-use',
    rule: 'deletePolicy.6',
  },
  ...(
    [
      ['/v1/policies', POLICY_CREATE, 'createPolicy.1', 'schema.PolicyId.1', 'header.PolicyLocation.1', 'pol_'],
      ['/v1/findings', FINDING_CREATE, 'createFinding.1', 'schema.FindingId.1', 'header.FindingLocation.1', 'fnd_'],
      ['/v1/webhooks', WEBHOOK_CREATE, 'createWebhook.1', 'schema.WebhookId.1', 'header.WebhookLocation.1', 'whk_'],
    ] as const
  ).flatMap(([collection, subject, creates, id, location, prefix]): RuleProof[] => {
    const created = { method: 'POST', path: new RegExp(`^${collection}$`), status: 201 };
    return [
      { name: 'a valid create refused', fault: status(created, 400), subject, check: 'success-response', rule: creates },
      {
        name: 'an id with a letter Crockford base32 leaves out',
        fault: field(created, (json) => void (json.id = String(json.id).replace(/.$/, 'u'))),
        subject,
        check: 'success-response',
        rule: id,
      },
      {
        name: 'a Location naming no resource',
        fault: header(created, 'location', (value) => value?.replace(/[^/]+$/, `${prefix}${'0'.repeat(26)}`)),
        subject,
        check: 'success-response',
        rule: location,
      },
    ];
  }),
  {
    name: 'a device_id answered with a letter Crockford base32 leaves out',
    fault: field(
      { method: 'POST', path: /^\/v1\/findings$/, status: 201 },
      (json) => void (json.device_id = String(json.device_id).replace(/.$/, 'u')),
    ),
    subject: FINDING_CREATE,
    check: 'success-response',
    rule: 'schema.DeviceId.1',
  },
  {
    name: 'a timestamp with an offset instead of Z',
    fault: field(
      { method: 'POST', path: /^\/v1\/policies$/, status: 201 },
      (json) => void (json.created_at = String(json.created_at).replace(/Z$/, '+00:00')),
    ),
    subject: POLICY_CREATE,
    check: 'success-response',
    rule: 'schema.Timestamp.1',
  },
  {
    name: 'a refused webhook URL typed validation-error',
    fault: field({ method: 'POST', path: /^\/v1\/webhooks$/, status: 400 }, (json) => {
      if (json.type === 'https://secmon.dev/problems/url-not-allowed') json.type = 'https://secmon.dev/problems/validation-error';
    }),
    subject: 'listPolicies (GET /v1/policies)',
    check: 'problem-catalogue',
    rule: 'createWebhook.3',
  },
  {
    name: 'webhook URLs of any scheme accepted (stored as https)',
    fault: requestBody({ path: /^\/v1\/webhooks(\/|$)/ }, (json) => {
      if (typeof json.url === 'string' && !/^https?:\/\//.test(json.url))
        json.url = `https://${json.url.replace(/^[^:/]*:?\/*/, '')}.invalid`;
    }),
    subject: WEBHOOK_CREATE,
    check: 'invalid-body',
    rule: 'schema.WebhookUrl.2',
  },
  {
    name: 'last_seen_at before first_seen_at refused with an error that points nowhere',
    fault: field({ method: 'POST', path: /^\/v1\/findings$/, status: 400 }, (json) => {
      for (const error of (json.errors as { pointer: string }[] | undefined) ?? []) error.pointer = '';
    }),
    subject: 'updateFinding (PUT /v1/findings/{id})',
    check: 'finding-lifecycle',
    rule: 'schema.ProblemError.2',
  },
  {
    // The address it refuses, written as an IPv4-mapped IPv6 literal, reaches it as a name that never resolves.
    name: 'a refused address accepted as an IPv4-mapped IPv6 literal',
    fault: requestBody({ path: /^\/v1\/webhooks(\/|$)/ }, (json) => {
      if (typeof json.url === 'string' && json.url.includes('[::ffff:')) json.url = 'https://kit-mapped-address.invalid/hook';
    }),
    subject: WEBHOOK_CREATE,
    check: 'webhook-addresses',
    rule: 'schema.WebhookUrl.2',
  },
  {
    // Production mode, where the service refuses the http URL it takes in https; the unique-local
    // address reaches it as a name that never resolves.
    name: 'a unique-local IPv6 address accepted in production mode',
    fault: requestBody({ method: 'POST', path: /^\/v1\/webhooks$/ }, (json) => {
      if (json.url === 'https://[fd00::1]/hook') json.url = 'https://kit-unique-local.invalid/hook';
    }),
    subject: WEBHOOK_CREATE,
    check: 'webhook-addresses',
    rule: 'schema.WebhookUrl.2',
    options: { events: 'skip' },
    target: { overrides: { mode: 'production' } },
  },
  {
    name: 'webhooks at an IPv6 literal saved but never delivered to',
    fault: requestBody({ method: 'POST', path: /^\/v1\/webhooks$/ }, (json) => {
      if (typeof json.url === 'string') json.url = json.url.replace(/^http:\/\/\[::1\]:\d+/, 'http://kit-ipv6-literal.invalid');
    }),
    subject: WEBHOOK_CREATE,
    check: 'webhook-addresses',
    rule: 'webhooks.2',
  },
  {
    name: 'the secret returned in a header',
    fault: secretInHeader,
    subject: 'getWebhook (GET /v1/webhooks/{id})',
    check: 'secrets',
    rule: 'schema.Webhook.3',
  },
  {
    name: 'policy names enforced unique',
    fault: uniqueNames,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'pagination-rules',
    rule: 'schema.PolicyWrite.3',
  },
  {
    name: 'compliance_status written by a client',
    fault: complianceWritten,
    subject: POLICY_READ,
    check: 'compliance',
    rule: 'schema.ComplianceStatus.2',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'deliveries of a webhook with a secret sent unsigned',
    fault: deliveries(({ headers: { 'x-service-signature': _hex, 'webhook-signature': _standard, ...headers }, body }) => ({
      headers,
      body,
    })),
    subject: CREATED,
    check: 'delivery',
    rule: 'schema.Webhook.2',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'X-Service-Signature keyed with another secret',
    fault: deliveryHeader(
      'x-service-signature',
      (_value, { body }) => `sha256=${createHmac('sha256', 'another secret').update(body).digest('hex')}`,
    ),
    subject: CREATED,
    check: 'delivery',
    rule: 'schema.WebhookSecret.1',
    options: { eventTimeoutMs: 2_000 },
  },
  {
    name: 'a redirect followed',
    fault: followsRedirects,
    subject: CREATED,
    check: 'delivery-retry',
    rule: 'schema.WebhookUrl.3',
    options: { skipRetryTiming: 'compressed schedule' },
  },
];
