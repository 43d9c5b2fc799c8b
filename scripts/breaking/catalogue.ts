// Every rule id the gate reports, with the oasdiff rule ids (checker/rules.go, oasdiff main of
// 2026-08) it corresponds to. Where oasdiff rates the change below ERR, `stricter` says why this
// document's clients or receivers break anyway. oasdiff applies its request rules to a webhook's
// body as if receivers sent it; ours flip the direction (the service sends, receivers read).
// The rules on schemas are in catalogue-schemas.ts.
import { SCHEMA_RULE_ENTRIES } from './catalogue-schemas.ts';
import type { RuleEntry } from './rule-entry.ts';

export const BREAKING_RULES = {
  'operation-removed': {
    summary: 'an API operation is gone (removed, or moved to another path or method)',
    oasdiff: ['api-removed-without-deprecation', 'api-path-removed-without-deprecation'],
  },
  'event-type-removed': { summary: 'an event type is gone from `webhooks`', oasdiff: ['webhook-removed'] },
  'operation-id-changed': {
    summary: 'an operationId was renamed',
    oasdiff: ['api-operation-id-removed', 'api-operation-id-added'],
    stricter: 'generated clients name their methods after it',
  },
  'status-code-removed': {
    summary: 'a documented status is gone and no range (`4XX`) covers it',
    oasdiff: ['response-success-status-removed', 'response-non-success-status-removed'],
    stricter: 'clients branch on error statuses too; for webhooks the service no longer honours an answer receivers give',
  },
  'response-header-removed': {
    summary: 'a response header is no longer sent',
    oasdiff: ['required-response-header-removed', 'optional-response-header-removed'],
    stricter: 'documented headers (ETag, Location, RateLimit) are read by clients whether or not marked required',
  },
  'response-header-became-optional': {
    summary: 'a response header is no longer always sent',
    oasdiff: ['response-header-became-optional'],
  },
  'request-body-became-required': {
    summary: 'clients must now send a request body',
    oasdiff: ['request-body-became-required', 'request-body-added-required'],
  },
  'media-type-removed': {
    summary: 'a request, response or event media type is gone (or renamed)',
    oasdiff: [
      'request-body-media-type-removed',
      'response-media-type-removed',
      'response-media-type-name-generalized',
      'request-body-removed',
    ],
  },
  'parameter-removed': {
    summary: 'a request parameter is gone',
    oasdiff: ['request-parameter-removed'],
    stricter: 'the service refuses unknown parameters with 400',
  },
  'required-parameter-added': {
    summary: 'clients must now send a parameter (on the operation or its path item)',
    oasdiff: [
      'new-required-request-parameter',
      'request-parameter-became-required',
      'new-request-path-parameter',
      'new-required-request-default-parameter-to-existing-path',
    ],
  },
  'webhook-header-removed': {
    summary: 'a delivery header is gone or no longer always sent',
    oasdiff: ['required-response-header-removed', 'response-header-became-optional'],
    stricter: 'oasdiff treats webhook headers as request parameters (request-parameter-removed, a warning); receivers read them',
  },
  'signature-scheme-changed': {
    summary: 'the signature header changed its format or its documented scheme',
    oasdiff: ['request-parameter-pattern-changed'],
    stricter: 'every receiver verifying signatures breaks',
  },
  'security-requirement-changed': {
    summary: 'an operation needs another security scheme (or one where it needed none)',
    oasdiff: ['api-security-added', 'api-global-security-added', 'api-security-removed', 'api-global-security-removed'],
    stricter: 'keys that worked are refused',
  },
  'security-scope-added': {
    summary: 'an operation needs a scope it did not need',
    oasdiff: ['api-security-scope-added', 'api-global-security-scope-added'],
    stricter: 'keys without the scope get 403',
  },
  'security-scheme-changed': {
    summary: 'a security scheme in use changed how credentials are sent (type, scheme, header, flow URLs)',
    oasdiff: [
      'api-security-component-type-changed',
      'api-security-component-removed',
      'api-security-component-oauth-url-changed',
      'api-security-component-oauth-token-url-changed',
    ],
    stricter: 'clients keep sending the old credentials',
  },
  ...SCHEMA_RULE_ENTRIES,
} as const satisfies Record<string, RuleEntry>;

/** What the markdown changelog lists besides the breaking changes. */
export const ADDITIVE_RULES = {
  'operation-added': { summary: 'a new operation', oasdiff: ['endpoint-added'] },
  'event-type-added': { summary: 'a new event type', oasdiff: ['webhook-added'] },
  'parameter-added': { summary: 'a new optional parameter or delivery header', oasdiff: ['new-optional-request-parameter'] },
  'status-code-added': {
    summary: 'a new documented status',
    oasdiff: ['response-success-status-added', 'response-non-success-status-added'],
  },
  'response-header-added': { summary: 'a new response header', oasdiff: ['response-header-added'] },
  'media-type-added': { summary: 'a new media type', oasdiff: ['request-body-media-type-added', 'response-media-type-added'] },
  'field-added': {
    summary: 'a new field',
    oasdiff: ['new-optional-request-property', 'response-optional-property-added', 'response-required-property-added'],
  },
  'enum-value-added': { summary: 'a new enum value', oasdiff: ['request-property-enum-value-added', 'response-property-enum-value-added'] },
} as const satisfies Record<string, RuleEntry>;

export type BreakingRuleId = keyof typeof BREAKING_RULES;
export type AdditiveRuleId = keyof typeof ADDITIVE_RULES;
export type RuleId = BreakingRuleId | AdditiveRuleId;

export const ruleEntry = (id: RuleId): RuleEntry =>
  id in BREAKING_RULES ? BREAKING_RULES[id as BreakingRuleId] : ADDITIVE_RULES[id as AdditiveRuleId];
