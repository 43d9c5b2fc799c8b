// The pairs the rule tests compare: the small released document below and an edited copy of it,
// and which family of rules each rule test file covers.
import { expect, it } from 'vitest';
import type { OpenApiDocument } from '../../packages/api/src/document.ts';
import { BREAKING_RULES, type BreakingRuleId } from '../../scripts/breaking/catalogue.ts';
import type { SCHEMA_RULE_ENTRIES } from '../../scripts/breaking/catalogue-schemas.ts';
import { findBreakingChanges } from '../../scripts/breaking/compare.ts';

export const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/** The released document of every pair, a fresh copy each call. */
export function released(): OpenApiDocument {
  return structuredClone({
    openapi: '3.1.1',
    info: { title: 'things', version: '1.0.0' },
    paths: {
      '/v1/things': {
        get: {
          operationId: 'listThings',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'kind', in: 'query', schema: { $ref: '#/components/schemas/Kind' } },
          ],
          responses: {
            '200': {
              description: 'ok',
              headers: { RateLimit: { schema: { type: 'string' } } },
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } },
            },
            '400': { description: 'bad', content: problem },
          },
        },
        post: {
          operationId: 'createThing',
          security: [{ bearerAuth: ['write'] }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingWrite' } } },
          },
          responses: {
            '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          },
        },
      },
      '/v1/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getThing',
          responses: {
            '200': {
              description: 'ok',
              headers: { ETag: { required: true, schema: { type: 'string' } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            '404': { description: 'missing', content: problem },
          },
        },
      },
    },
    security: [{ bearerAuth: ['read'] }],
    webhooks: {
      'thing.created': {
        post: {
          operationId: 'thingCreated',
          parameters: [
            {
              name: 'X-Service-Signature',
              in: 'header',
              description: 'sha256= HMAC of the raw body.',
              schema: { type: 'string', minLength: 71, maxLength: 71, pattern: '^sha256=[0-9a-f]{64}$' },
            },
            { name: 'X-Service-Delivery', in: 'header', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingCreatedEvent' } } },
          },
          security: [{ receiverToken: [] }],
          responses: {
            '200': { description: 'ok' },
            '410': { description: 'gone: disables the webhook' },
            default: { description: 'retried' },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        receiverToken: { type: 'apiKey', in: 'header', name: 'X-Receiver-Token' },
      },
      schemas: {
        Kind: { type: 'string', enum: ['small', 'large'] },
        ThingId: { type: 'string', pattern: '^thg_[0-9a-z]{26}$' },
        Timestamp: { type: 'string', format: 'date-time' },
        ThingWrite: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 128 },
            kind: { $ref: '#/components/schemas/Kind' },
            note: { type: ['string', 'null'], maxLength: 512 },
            tags: { type: 'array', maxItems: 10, items: { type: 'string', pattern: '^[a-z]+$' } },
            enabled: { type: 'boolean', default: true },
            parent: { oneOf: [{ $ref: '#/components/schemas/ThingId' }, { type: 'null' }] },
            labels: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } } },
          },
        },
        Thing: {
          type: 'object',
          required: ['id', 'name', 'kind'],
          properties: {
            id: { type: 'string', pattern: '^thg_[0-9a-z]{26}$' },
            name: { type: 'string', maxLength: 128 },
            kind: { $ref: '#/components/schemas/Kind' },
            count: { type: 'integer' },
            state: { type: 'string', enum: ['active', 'archived'] },
            owner: { oneOf: [{ type: 'string' }, { type: 'null' }] },
            secret: { type: 'string', writeOnly: true },
            created_at: { allOf: [{ $ref: '#/components/schemas/Timestamp' }], readOnly: true },
          },
        },
        ThingCreatedEvent: {
          type: 'object',
          required: ['event', 'data'],
          properties: {
            event: { type: 'string', const: 'thing.created' },
            data: { type: 'object', required: ['thing_id'], properties: { thing_id: { type: 'string' } } },
          },
        },
        Problem: { type: 'object', properties: { type: { type: 'string' } } },
      },
    },
  }) as unknown as OpenApiDocument;
}

// Rules seen failing in this test file: each file is its own module instance.
const found = new Set<string>();

/** The breaking changes after applying `edit` to a copy of the released document (after `setUp` on both). */
export function after(edit: (doc: any) => void, setUp: (doc: any) => void = () => {}) {
  const [base, revision] = [released(), released()];
  setUp(base);
  setUp(revision);
  edit(revision);
  const changes = findBreakingChanges(base, revision);
  changes.forEach((change) => found.add(change.rule));
  return changes;
}

export const rulesOf = (changes: ReturnType<typeof after>) => [...new Set(changes.map((change) => change.rule))].sort();
export const located = (changes: ReturnType<typeof after>) => changes.map((change) => `${change.rule} ${change.pointer}`);
export const things = (doc: any) => doc.paths['/v1/things'];
export const thing = (doc: any) => doc.paths['/v1/things/{id}'];
export const event = (doc: any) => doc.webhooks['thing.created'].post;
export const schemas = (doc: any) => doc.components.schemas;

/** Moves `record[from]` to `record[to]`: a path, a status or a media type renamed. */
export function rename(record: Record<string, unknown>, from: string, to: string): void {
  record[to] = record[from];
  delete record[from];
}

type Family = 'operations' | 'parameters' | 'security' | 'schemas';

// The schema rules (the catalogue keeps them apart) are one family; every other rule is named here,
// so a new rule in the catalogue does not compile until a family's test file owns it.
const FAMILY_OF: Record<Exclude<BreakingRuleId, keyof typeof SCHEMA_RULE_ENTRIES>, Family> = {
  'operation-removed': 'operations',
  'event-type-removed': 'operations',
  'operation-id-changed': 'operations',
  'status-code-removed': 'operations',
  'response-header-removed': 'operations',
  'response-header-became-optional': 'operations',
  'request-body-became-required': 'operations',
  'media-type-removed': 'operations',
  'parameter-removed': 'parameters',
  'required-parameter-added': 'parameters',
  'webhook-header-removed': 'parameters',
  'signature-scheme-changed': 'parameters',
  'security-requirement-changed': 'security',
  'security-scope-added': 'security',
  'security-scheme-changed': 'security',
};

const familyOf = (rule: string): Family => (rule in FAMILY_OF ? FAMILY_OF[rule as keyof typeof FAMILY_OF] : 'schemas');

/**
 * A test, last in its file: the pairs above failed every rule of the family (and, on the way,
 * perhaps rules of another family: a parameter has a schema), and only rules of the catalogue.
 */
export function itSawEveryRuleOf(family: Family): void {
  it(`every ${family} rule of the catalogue was seen failing a pair above`, () => {
    const catalogue = Object.keys(BREAKING_RULES);
    expect([...found].sort()).toEqual(expect.arrayContaining(catalogue.filter((rule) => familyOf(rule) === family)));
    expect([...found].filter((rule) => !catalogue.includes(rule))).toEqual([]);
  });
}
