// Every rule id the gate reports, with the oasdiff rule ids (checker/rules.go, oasdiff main of
// 2026-08) it corresponds to. Where oasdiff rates the change below ERR, `stricter` says why this
// document's clients or receivers break anyway. oasdiff applies its request rules to a webhook's
// body as if receivers sent it; ours flip the direction (the service sends, receivers read).

export interface RuleEntry {
  /** What the change is, in the words of the release note. */
  summary: string;
  oasdiff: readonly string[];
  /** Why we judge it breaking where oasdiff only informs or warns. */
  stricter?: string;
}

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
  'enum-value-removed': {
    summary: 'a value is no longer in an enum the service accepts or sends',
    oasdiff: [
      'request-property-enum-value-removed',
      'request-parameter-enum-value-removed',
      'request-body-enum-value-removed',
      'request-parameter-property-enum-value-removed',
      'response-property-enum-value-removed',
    ],
    stricter: "readers handle every value; the document's Versioning section allows adding values within v1, never removing one",
  },
  'became-enum': {
    summary: 'a free request value is now limited to an enum',
    oasdiff: [
      'request-property-became-enum',
      'request-parameter-became-enum',
      'request-body-became-enum',
      'request-header-property-became-enum',
    ],
  },
  'const-changed': {
    summary: 'a const was added or changed (requests), or changed or removed (responses and events)',
    oasdiff: [
      'request-property-const-added',
      'request-property-const-changed',
      'request-body-const-added',
      'request-body-const-changed',
      'response-property-const-changed',
      'response-property-const-removed',
      'response-body-const-changed',
      'response-body-const-removed',
    ],
  },
  'required-request-field-added': {
    summary: 'clients must now send a field (at any depth, in array items too)',
    oasdiff: [
      'new-required-request-property',
      'request-property-became-required',
      'new-required-request-property-with-default',
      'request-property-became-required-with-default',
    ],
  },
  'field-removed': {
    summary: 'a response or event field is gone, or a request field a closed object now refuses',
    oasdiff: ['response-required-property-removed', 'response-optional-property-removed', 'request-property-removed'],
    stricter: 'readers of optional fields break as well; closed request objects refuse unknown fields',
  },
  'field-became-optional': {
    summary: 'a response or event field is no longer always present',
    oasdiff: ['response-property-became-optional'],
  },
  'field-became-read-only': {
    summary: 'a request field became readOnly',
    oasdiff: ['request-optional-property-became-read-only', 'request-required-property-became-read-only'],
    stricter: 'a validating server refuses readOnly fields in requests',
  },
  'field-became-write-only': {
    summary: 'a response or event field became writeOnly (no longer returned)',
    oasdiff: ['response-optional-property-became-write-only', 'response-required-property-became-write-only'],
    stricter: 'readers of the field no longer get it',
  },
  'default-changed': {
    summary: 'the default of a request field or parameter was added, changed or removed',
    oasdiff: [
      'request-parameter-default-value-changed',
      'request-parameter-default-value-added',
      'request-parameter-default-value-removed',
      'request-property-default-value-changed',
      'request-property-default-value-added',
      'request-property-default-value-removed',
    ],
    stricter: 'for fields (oasdiff: info) a client that omits the field gets other behaviour',
  },
  'bound-narrowed': {
    summary: 'a request bound was tightened or added',
    oasdiff: [
      'request-property-max-length-decreased',
      'request-property-min-length-increased',
      'request-property-max-decreased',
      'request-property-min-increased',
      'request-property-exclusive-max-decreased',
      'request-property-exclusive-min-increased',
      'request-property-min-items-increased',
      'request-parameter-max-items-decreased',
      'request-parameter-max-length-decreased',
      'request-parameter-min-length-increased',
      'request-parameter-max-decreased',
      'request-parameter-min-increased',
      'request-parameter-min-items-increased',
      'request-body-max-length-decreased',
      'request-body-min-length-increased',
      'request-body-max-decreased',
      'request-body-min-increased',
      'request-body-min-items-increased',
      'request-property-max-length-set',
      'request-parameter-max-set',
    ],
    stricter: 'a bound set where there was none (oasdiff: warning) refuses values that were valid',
  },
  'bound-widened': {
    summary: 'a response or event bound was loosened or dropped',
    oasdiff: [
      'response-property-max-length-increased',
      'response-property-max-length-unset',
      'response-property-max-increased',
      'response-property-min-decreased',
      'response-property-min-length-decreased',
      'response-property-min-items-decreased',
      'response-property-min-items-unset',
      'response-property-exclusive-max-increased',
      'response-property-exclusive-min-decreased',
      'response-body-max-length-increased',
      'response-body-max-increased',
      'response-body-min-decreased',
      'response-body-min-items-decreased',
    ],
  },
  'pattern-changed': {
    summary: 'a pattern was added or changed in a request, or changed or dropped in a response or event',
    oasdiff: [
      'request-property-pattern-added',
      'request-parameter-pattern-added',
      'request-property-pattern-changed',
      'request-parameter-pattern-changed',
      'response-property-pattern-changed',
      'response-property-pattern-removed',
    ],
    stricter: 'a changed pattern is not known to accept a superset; readers validate ids by pattern',
  },
  'type-narrowed': {
    summary: 'a request type accepts less (including no longer null)',
    oasdiff: [
      'request-property-type-changed',
      'request-parameter-type-changed',
      'request-body-type-changed',
      'request-property-list-of-types-narrowed',
      'request-parameter-list-of-types-narrowed',
      'request-body-list-of-types-narrowed',
      'request-property-became-not-nullable',
      'request-parameter-became-not-nullable',
      'request-body-became-not-nullable',
    ],
  },
  'type-widened': {
    summary: 'a response, event or response-header type allows more (including null)',
    oasdiff: [
      'response-property-type-changed',
      'response-body-type-changed',
      'response-property-type-generalized',
      'response-body-type-generalized',
      'response-property-list-of-types-widened',
      'response-body-list-of-types-widened',
      'response-property-became-nullable',
      'response-body-became-nullable',
      'response-header-type-changed',
      'response-header-type-generalized',
      'response-header-became-nullable',
    ],
  },
  'format-changed': {
    summary: 'a format was added or changed (requests), or changed or dropped (responses and events)',
    oasdiff: ['request-property-type-changed', 'request-parameter-type-changed', 'response-property-type-changed'],
  },
  'schema-variant-removed': {
    summary: 'a oneOf/anyOf member a request could match is gone',
    oasdiff: [
      'request-property-one-of-removed',
      'request-property-any-of-removed',
      'request-body-one-of-removed',
      'request-body-any-of-removed',
    ],
  },
  'schema-variant-added': {
    summary: 'a response or event value may now match a new oneOf/anyOf member',
    oasdiff: [
      'response-property-one-of-added',
      'response-body-one-of-added',
      'response-body-wrapped-in-one-of',
      'response-property-any-of-added',
    ],
  },
  'all-of-added': {
    summary: 'a request schema must now also match another allOf member',
    oasdiff: ['request-property-all-of-added', 'request-body-all-of-added'],
  },
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
