// Each breaking-change rule on a pair of small documents: the released one below and an edited
// copy. Additive edits must pass, and are listed for the changelog.
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../lib/document.ts';
import { loadDocument } from '../../lib/document.ts';
import { type AdditiveRuleId, BREAKING_RULES } from '../../scripts/breaking/catalogue.ts';
import { compareReleases, findBreakingChanges } from '../../scripts/breaking/compare.ts';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

function released(): OpenApiDocument {
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

const found = new Set<string>();

/** The breaking changes after applying `edit` to a copy of the released document (after `setUp` on both). */
function after(edit: (doc: any) => void, setUp: (doc: any) => void = () => {}) {
  const [base, revision] = [released(), released()];
  setUp(base);
  setUp(revision);
  edit(revision);
  const changes = findBreakingChanges(base, revision);
  changes.forEach((change) => found.add(change.rule));
  return changes;
}

const rulesOf = (changes: ReturnType<typeof after>) => [...new Set(changes.map((change) => change.rule))].sort();
const located = (changes: ReturnType<typeof after>) => changes.map((change) => `${change.rule} ${change.pointer}`);
const things = (doc: any) => doc.paths['/v1/things'];
const thing = (doc: any) => doc.paths['/v1/things/{id}'];
const event = (doc: any) => doc.webhooks['thing.created'].post;
const schemas = (doc: any) => doc.components.schemas;

describe('operation rules', () => {
  it('finds nothing between identical documents', () => {
    expect(after(() => {})).toEqual([]);
  });

  it('operation-removed: an API operation is gone, or its path renamed', () => {
    expect(after((doc) => delete things(doc).post)).toEqual([
      { rule: 'operation-removed', pointer: '#/paths/~1v1~1things/post', message: 'POST /v1/things was removed', audience: ['clients'] },
    ]);
    const renamed = after((doc) => {
      doc.paths['/v1/items'] = things(doc);
      delete doc.paths['/v1/things'];
    });
    expect(renamed.map((change) => change.message)).toEqual(['GET /v1/things was removed', 'POST /v1/things was removed']);
  });

  it('a renamed path parameter is the same path', () => {
    expect(
      after((doc) => {
        doc.paths['/v1/things/{thingId}'] = thing(doc);
        thing(doc).parameters[0].name = 'thingId';
        delete doc.paths['/v1/things/{id}'];
      }),
    ).toEqual([]);
  });

  it('event-type-removed: a webhook is gone, and its receivers break', () => {
    expect(after((doc) => delete doc.webhooks['thing.created'])).toEqual([
      {
        rule: 'event-type-removed',
        pointer: '#/webhooks/thing.created/post',
        message: 'webhook thing.created was removed',
        audience: ['receivers'],
      },
    ]);
  });

  it('operation-id-changed: generated clients rename the method', () => {
    expect(after((doc) => (things(doc).get.operationId = 'getThings'))).toMatchObject([
      { rule: 'operation-id-changed', message: 'GET /v1/things: the operationId was renamed', before: 'listThings', after: 'getThings' },
    ]);
  });

  it('status-code-removed: a status gone or replaced, unless a range covers it; for webhooks too', () => {
    const replaced = after((doc) => {
      const responses = things(doc).post.responses;
      responses['200'] = responses['201'];
      delete responses['201'];
    });
    expect(replaced).toMatchObject([
      {
        rule: 'status-code-removed',
        pointer: '#/paths/~1v1~1things/post/responses/201',
        message: 'POST /v1/things: response 201 was removed',
        before: ['201'],
        after: ['200'],
      },
    ]);
    const ranged = (doc: any) => {
      thing(doc).get.responses['4XX'] = thing(doc).get.responses['404'];
      delete thing(doc).get.responses['404'];
    };
    expect(after(ranged)).toEqual([]);
    expect(located(after((doc) => delete thing(doc).get.responses['4XX'], ranged))).toEqual([
      'status-code-removed #/paths/~1v1~1things~1{id}/get/responses/4XX',
    ]);
    expect(after((doc) => delete event(doc).responses['410'])).toMatchObject([
      { rule: 'status-code-removed', pointer: '#/webhooks/thing.created/post/responses/410', audience: ['receivers'] },
    ]);
  });

  it('request-body-became-required: an optional body, or none, is now required', () => {
    const optional = (doc: any) => (things(doc).post.requestBody.required = false);
    expect(after((doc) => (things(doc).post.requestBody.required = true), optional)).toMatchObject([
      { rule: 'request-body-became-required', pointer: '#/paths/~1v1~1things/post/requestBody/required', before: false, after: true },
    ]);
    const added = after(
      (doc) => (thing(doc).get.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } }),
    );
    expect(added).toMatchObject([{ rule: 'request-body-became-required', before: 'no body', after: true }]);
  });

  it('media-type-removed: in a request, a response and an event; a request wildcard still accepts it', () => {
    const request = after((doc) => {
      const content = things(doc).post.requestBody.content;
      content['application/vnd.things+json'] = content['application/json'];
      delete content['application/json'];
    });
    expect(request).toEqual([
      {
        rule: 'media-type-removed',
        pointer: '#/paths/~1v1~1things/post/requestBody/content/application~1json',
        message: 'POST /v1/things: the request body is no longer application/json',
        before: ['application/json'],
        after: ['application/vnd.things+json'],
        audience: ['clients'],
      },
    ]);
    const response = after((doc) => {
      const content = thing(doc).get.responses['200'].content;
      content['text/plain'] = { schema: { type: 'string' } };
      delete content['application/json'];
    });
    expect(located(response)).toEqual(['media-type-removed #/paths/~1v1~1things~1{id}/get/responses/200/content/application~1json']);
    const eventBody = after((doc) => delete event(doc).requestBody);
    expect(eventBody).toMatchObject([
      {
        rule: 'media-type-removed',
        message: 'webhook thing.created: the event body is no longer application/json',
        audience: ['receivers'],
      },
    ]);
    const wildcard = after((doc) => {
      const content = things(doc).post.requestBody.content;
      content['application/*'] = content['application/json'];
      delete content['application/json'];
    });
    expect(wildcard).toEqual([]);
  });

  it('response-header-removed and response-header-became-optional', () => {
    expect(after((doc) => delete things(doc).get.responses['200'].headers.RateLimit)).toMatchObject([
      {
        rule: 'response-header-removed',
        pointer: '#/paths/~1v1~1things/get/responses/200/headers/RateLimit',
        message: 'GET /v1/things: response 200 no longer has the header RateLimit',
      },
    ]);
    expect(after((doc) => (thing(doc).get.responses['200'].headers.ETag.required = false))).toMatchObject([
      {
        rule: 'response-header-became-optional',
        pointer: '#/paths/~1v1~1things~1{id}/get/responses/200/headers/ETag/required',
        before: true,
        after: false,
      },
    ]);
  });
});

describe('parameter rules, on operations and path items', () => {
  it('parameter-removed: a query parameter clients send is gone', () => {
    expect(after((doc) => things(doc).get.parameters.pop())).toMatchObject([
      { rule: 'parameter-removed', message: 'GET /v1/things: the query kind parameter was removed' },
    ]);
  });

  it('required-parameter-added: on the operation, made required, or on the path item', () => {
    const added = after((doc) =>
      things(doc).get.parameters.push({ name: 'owner', in: 'query', required: true, schema: { type: 'string' } }),
    );
    expect(added).toMatchObject([
      {
        rule: 'required-parameter-added',
        message: 'GET /v1/things: the query owner parameter is now required',
        pointer: '#/paths/~1v1~1things/get/parameters/2',
        before: 'absent',
        after: 'required',
      },
    ]);
    expect(rulesOf(after((doc) => (things(doc).get.parameters[0].required = true)))).toEqual(['required-parameter-added']);
    const pathItem = after((doc) =>
      thing(doc).parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } }),
    );
    expect(pathItem).toMatchObject([
      {
        rule: 'required-parameter-added',
        pointer: '#/paths/~1v1~1things~1{id}/parameters/1',
        message: 'GET /v1/things/{id}: the query tenant parameter is now required',
      },
    ]);
  });

  it('parameter rules see path-item parameters: a path-item parameter moved to the operation is no change', () => {
    expect(
      after((doc) => {
        thing(doc).get.parameters = thing(doc).parameters;
        delete thing(doc).parameters;
      }),
    ).toEqual([]);
    const schema = after((doc) => (thing(doc).parameters[0].schema.maxLength = 8));
    expect(located(schema)).toEqual(['bound-narrowed #/paths/~1v1~1things~1{id}/parameters/0/schema/maxLength']);
  });

  it('webhook-header-removed: a delivery header is gone or no longer always sent', () => {
    expect(after((doc) => event(doc).parameters.pop())).toMatchObject([
      {
        rule: 'webhook-header-removed',
        message: 'webhook thing.created: the delivery header X-Service-Delivery was removed',
        audience: ['receivers'],
      },
    ]);
    expect(after((doc) => (event(doc).parameters[1].required = false))).toMatchObject([
      { rule: 'webhook-header-removed', message: 'webhook thing.created: the delivery header X-Service-Delivery is no longer always sent' },
    ]);
  });

  it('signature-scheme-changed: the signature header format or its description', () => {
    const pattern = after((doc) => (event(doc).parameters[0].schema.pattern = '^v1,[A-Za-z0-9+/=]+$'));
    expect(rulesOf(pattern)).toEqual(['pattern-changed', 'signature-scheme-changed']);
    expect(pattern.find((change) => change.rule === 'signature-scheme-changed')).toMatchObject({
      before: '^sha256=[0-9a-f]{64}$',
      after: '^v1,[A-Za-z0-9+/=]+$',
    });
    const described = after((doc) => (event(doc).parameters[0].description = 'HMAC-SHA512 of the body.'));
    expect(described).toMatchObject([
      { rule: 'signature-scheme-changed', message: "the X-Service-Signature header's description changed" },
    ]);
    const removed = after((doc) => event(doc).parameters.shift());
    expect(removed).toMatchObject([
      { rule: 'webhook-header-removed', message: 'webhook thing.created: the delivery header X-Service-Signature was removed' },
    ]);
  });
});

describe('security rules', () => {
  it('security-scope-added: an operation needs a scope it did not, through its own or the global security', () => {
    expect(after((doc) => (things(doc).post.security = [{ bearerAuth: ['write', 'admin'] }]))).toMatchObject([
      {
        rule: 'security-scope-added',
        pointer: '#/paths/~1v1~1things/post/security',
        before: ['bearerAuth[write]'],
        after: ['bearerAuth[write, admin]'],
        audience: ['clients'],
      },
    ]);
    const global = after((doc) => (doc.security = [{ bearerAuth: ['read', 'list'] }]));
    expect(located(global)).toEqual(['security-scope-added #/security', 'security-scope-added #/security']);
  });

  it('security-requirement-changed: another scheme, or one where none was needed; for webhooks, credentials no longer sent', () => {
    const other = after((doc) => {
      doc.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
      things(doc).post.security = [{ apiKey: [] }];
    });
    expect(other).toMatchObject([
      { rule: 'security-requirement-changed', message: 'POST /v1/things: bearerAuth[write] is no longer accepted' },
    ]);
    const anonymous = (doc: any) => (thing(doc).get.security = []);
    expect(rulesOf(after((doc) => delete thing(doc).get.security, anonymous))).toEqual(['security-requirement-changed']);
    expect(after(anonymous)).toEqual([]);
    expect(after((doc) => (event(doc).security = []))).toMatchObject([{ rule: 'security-requirement-changed', audience: ['receivers'] }]);
  });

  it('security-scheme-changed: bearer became an API-key header', () => {
    const changes = after((doc) => (doc.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    expect(changes).toEqual([
      {
        rule: 'security-scheme-changed',
        pointer: '#/components/securitySchemes/bearerAuth',
        message: 'the security scheme bearerAuth now sends credentials differently',
        before: { type: 'http', scheme: 'bearer' },
        after: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        audience: ['clients'],
      },
    ]);
  });
});

describe('schema rules', () => {
  it('enum-value-removed in requests and in what the service sends (Versioning: no removal within v1); became-enum in requests', () => {
    expect(after((doc) => (schemas(doc).Kind.enum = ['small']))).toEqual([
      {
        rule: 'enum-value-removed',
        pointer: '#/components/schemas/Kind/enum',
        message: 'the value "large" was removed',
        before: ['small', 'large'],
        after: ['small'],
        audience: ['clients'],
      },
    ]);
    expect(located(after((doc) => (schemas(doc).ThingWrite.properties.name.enum = ['a', 'b'])))).toEqual([
      'became-enum #/components/schemas/ThingWrite/properties/name/enum',
    ]);
    expect(after((doc) => (schemas(doc).Thing.properties.state.enum = ['active']))).toEqual([
      {
        rule: 'enum-value-removed',
        pointer: '#/components/schemas/Thing/properties/state/enum',
        message: 'the value "archived" was removed',
        before: ['active', 'archived'],
        after: ['active'],
        audience: ['clients'],
      },
    ]);
  });

  it('a value added to an enum the service sends is an addition, as the Versioning section allows', () => {
    const [base, revision] = [released(), released()];
    schemas(revision).Thing.properties.state.enum.push('deleted');
    const report = compareReleases(base, revision);
    expect(report.breaking).toEqual([]);
    expect(report.additive.map((change) => `${change.rule} ${change.pointer}`)).toEqual([
      'enum-value-added #/components/schemas/Thing/properties/state/enum',
    ]);
  });

  it('const-changed: an event const changed, a request const added', () => {
    expect(after((doc) => (schemas(doc).ThingCreatedEvent.properties.event.const = 'thing.made'))).toMatchObject([
      { rule: 'const-changed', message: 'the const changed', before: 'thing.created', after: 'thing.made', audience: ['receivers'] },
    ]);
    expect(located(after((doc) => (schemas(doc).ThingWrite.properties.name.const = 'fixed')))).toEqual([
      'const-changed #/components/schemas/ThingWrite/properties/name/const',
    ]);
  });

  it('required-request-field-added: at the top, in nested array items; readOnly fields do not count', () => {
    expect(after((doc) => schemas(doc).ThingWrite.required.push('kind'))).toMatchObject([
      {
        rule: 'required-request-field-added',
        pointer: '#/components/schemas/ThingWrite/required',
        message: 'the request field kind is now required',
        before: ['name'],
        after: ['name', 'kind'],
      },
    ]);
    expect(located(after((doc) => (schemas(doc).ThingWrite.properties.labels.items.required = ['key'])))).toEqual([
      'required-request-field-added #/components/schemas/ThingWrite/properties/labels/items/required',
    ]);
    const readOnly = after((doc) => {
      schemas(doc).ThingWrite.properties.id = { type: 'string', readOnly: true };
      schemas(doc).ThingWrite.required.push('id');
    });
    expect(readOnly).toEqual([]);
  });

  it('field-removed: from a response, an event or a closed request; not a writeOnly field from a response', () => {
    expect(after((doc) => delete schemas(doc).Thing.properties.count)).toEqual([
      {
        rule: 'field-removed',
        pointer: '#/components/schemas/Thing/properties/count',
        message: 'the response or event field count was removed',
        audience: ['clients'],
      },
    ]);
    const eventField = after(
      (doc) => (schemas(doc).ThingCreatedEvent.properties.data = { type: 'object', properties: { id: { type: 'string' } } }),
    );
    expect(eventField.map((change) => change.message)).toContain('the response or event field thing_id was removed');
    expect(after((doc) => delete schemas(doc).ThingWrite.properties.note)).toMatchObject([
      { rule: 'field-removed', message: 'the request field note was removed' },
    ]);
    expect(
      after(
        (doc) => delete schemas(doc).ThingWrite.properties.note,
        (doc) => delete schemas(doc).ThingWrite.additionalProperties,
      ),
    ).toEqual([]);
    expect(after((doc) => delete schemas(doc).Thing.properties.secret)).toEqual([]);
  });

  it('field-became-optional: a response field no longer always present', () => {
    expect(after((doc) => (schemas(doc).Thing.required = ['id', 'name']))).toMatchObject([
      {
        rule: 'field-became-optional',
        pointer: '#/components/schemas/Thing/required',
        message: 'the response or event field kind is no longer always present',
      },
    ]);
  });

  it('field-became-read-only in a request, field-became-write-only in a response', () => {
    expect(located(after((doc) => (schemas(doc).ThingWrite.properties.note.readOnly = true)))).toEqual([
      'field-became-read-only #/components/schemas/ThingWrite/properties/note/readOnly',
    ]);
    expect(located(after((doc) => (schemas(doc).Thing.properties.name.writeOnly = true)))).toEqual([
      'field-became-write-only #/components/schemas/Thing/properties/name/writeOnly',
    ]);
  });

  it('default-changed: a request field default changed, a parameter default added', () => {
    expect(after((doc) => (schemas(doc).ThingWrite.properties.enabled.default = false))).toEqual([
      {
        rule: 'default-changed',
        pointer: '#/components/schemas/ThingWrite/properties/enabled/default',
        message: 'the default changed',
        before: true,
        after: false,
        audience: ['clients'],
      },
    ]);
    expect(after((doc) => (things(doc).get.parameters[0].schema.default = 20))).toMatchObject([
      { rule: 'default-changed', message: 'the default was added', after: 20 },
    ]);
  });

  it('bound-narrowed: request bounds lowered, raised or added', () => {
    const changes = after((doc) => {
      const write = schemas(doc).ThingWrite.properties;
      write.name.maxLength = 64;
      write.name.minLength = 3;
      write.tags.maxItems = 5;
      things(doc).get.parameters[0].schema.maximum = 50;
      write.note.minLength = 1;
    });
    expect(changes.map((change) => `${change.pointer} ${change.message}`).sort()).toEqual([
      '#/components/schemas/ThingWrite/properties/name/maxLength maxLength went from 128 to 64',
      '#/components/schemas/ThingWrite/properties/name/minLength minLength went from 1 to 3',
      '#/components/schemas/ThingWrite/properties/note/minLength minLength went from none to 1',
      '#/components/schemas/ThingWrite/properties/tags/maxItems maxItems went from 10 to 5',
      '#/paths/~1v1~1things/get/parameters/0/schema/maximum maximum went from 100 to 50',
    ]);
    expect(rulesOf(changes)).toEqual(['bound-narrowed']);
  });

  it('bound-widened: a response bound raised or dropped', () => {
    expect(after((doc) => (schemas(doc).Thing.properties.name.maxLength = 256))).toMatchObject([
      { rule: 'bound-widened', pointer: '#/components/schemas/Thing/properties/name/maxLength', before: 128, after: 256 },
    ]);
    expect(after((doc) => delete schemas(doc).Thing.properties.name.maxLength)).toMatchObject([
      { rule: 'bound-widened', message: 'maxLength went from 128 to none' },
    ]);
  });

  it('pattern-changed: in a request item and in a response id; a pattern added to a response is fine', () => {
    expect(after((doc) => (schemas(doc).ThingWrite.properties.tags.items.pattern = '^[a-z]{1,8}$'))).toMatchObject([
      { rule: 'pattern-changed', pointer: '#/components/schemas/ThingWrite/properties/tags/items/pattern' },
    ]);
    expect(after((doc) => (schemas(doc).Thing.properties.id.pattern = '^thg_[0-9a-f]{32}$'))).toMatchObject([
      { rule: 'pattern-changed', message: 'the pattern ^thg_[0-9a-z]{26}$ became ^thg_[0-9a-f]{32}$' },
    ]);
    expect(after((doc) => (schemas(doc).Thing.properties.name.pattern = '^[a-z]+$'))).toEqual([]);
  });

  it('type-narrowed in a request, type-widened in a response and a response header', () => {
    expect(after((doc) => (schemas(doc).ThingWrite.properties.note.type = 'string'))).toMatchObject([
      {
        rule: 'type-narrowed',
        pointer: '#/components/schemas/ThingWrite/properties/note/type',
        message: 'the request type went from string|null to string',
        before: 'string|null',
        after: 'string',
      },
    ]);
    expect(rulesOf(after((doc) => (things(doc).get.parameters[0].schema.type = 'string')))).toEqual(['type-narrowed']);
    expect(after((doc) => (schemas(doc).Thing.properties.count.type = 'number'))).toMatchObject([
      { rule: 'type-widened', message: 'the response or event type went from integer to number' },
    ]);
    expect(located(after((doc) => (thing(doc).get.responses['200'].headers.ETag.schema.type = ['string', 'null'])))).toEqual([
      'type-widened #/paths/~1v1~1things~1{id}/get/responses/200/headers/ETag/schema/type',
    ]);
  });

  it('format-changed: a response format dropped, a request format added', () => {
    expect(after((doc) => delete schemas(doc).Timestamp.format)).toMatchObject([
      { rule: 'format-changed', pointer: '#/components/schemas/Timestamp/format', before: 'date-time' },
    ]);
    expect(located(after((doc) => (schemas(doc).ThingWrite.properties.name.format = 'email')))).toEqual([
      'format-changed #/components/schemas/ThingWrite/properties/name/format',
    ]);
  });

  it('schema-variant-removed from a request oneOf (null no longer accepted), schema-variant-added to a response oneOf', () => {
    expect(after((doc) => schemas(doc).ThingWrite.properties.parent.oneOf.pop())).toMatchObject([
      {
        rule: 'schema-variant-removed',
        pointer: '#/components/schemas/ThingWrite/properties/parent/oneOf',
        message: 'the oneOf member {"type":"null"} was removed',
      },
    ]);
    expect(after((doc) => schemas(doc).Thing.properties.owner.oneOf.push({ type: 'integer' }))).toMatchObject([
      { rule: 'schema-variant-added', message: 'the oneOf member {"type":"integer"} was added', before: 2, after: 3 },
    ]);
    expect(after((doc) => (schemas(doc).Thing.properties.count = { oneOf: [{ type: 'integer' }, { type: 'string' }] }))).toMatchObject([
      { rule: 'schema-variant-added' },
      { rule: 'schema-variant-added' },
      { rule: 'type-widened' },
    ]);
  });

  it('a member spelling out the type it had from its parent is the same member', () => {
    const setUp = (doc: any) =>
      (schemas(doc).Thing.properties.address = { type: 'string', maxLength: 45, anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] });
    expect(
      after(
        (doc) =>
          (schemas(doc).Thing.properties.address.anyOf = [
            { type: 'string', format: 'ipv4' },
            { type: 'string', format: 'ipv6' },
          ]),
        setUp,
      ),
    ).toEqual([]);
  });

  it('all-of-added: a request schema must also match another member', () => {
    expect(located(after((doc) => (schemas(doc).ThingWrite.properties.name.allOf = [{ maxLength: 10 }])))).toEqual([
      'all-of-added #/components/schemas/ThingWrite/properties/name/allOf',
    ]);
  });
});

describe('additive changes', () => {
  const additive = (doc: any) => {
    doc.paths['/v1/things/{id}'].delete = { operationId: 'deleteThing', responses: { '204': { description: 'gone' } } };
    doc.webhooks['thing.deleted'] = structuredClone(doc.webhooks['thing.created']);
    things(doc).get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } });
    things(doc).get.responses['429'] = { description: 'slow down', content: problem };
    things(doc).get.responses['200'].headers.ETag = { schema: { type: 'string' } };
    things(doc).post.requestBody.content['application/merge-patch+json'] = things(doc).post.requestBody.content['application/json'];
    schemas(doc).Kind.enum.push('medium');
    schemas(doc).ThingWrite.properties.colour = { type: 'string', maxLength: 16 };
    schemas(doc).ThingWrite.properties.name.maxLength = 256;
    schemas(doc).ThingWrite.properties.tags.items.pattern = undefined;
    schemas(doc).ThingWrite.properties.parent.oneOf.push({ type: 'integer' });
    schemas(doc).Thing.properties.created_by = { type: 'string' };
    schemas(doc).Thing.required.push('count');
    schemas(doc).Thing.properties.name.maxLength = 64;
    schemas(doc).Thing.properties.owner.oneOf.pop();
    event(doc).parameters.push({ name: 'X-Service-Webhook-Id', in: 'header', required: true, schema: { type: 'string' } });
    event(doc).responses['429'] = { description: 'retried after Retry-After' };
    event(doc).security = [{ receiverToken: [] }, { receiverToken: [], bearerAuth: [] }];
    doc.security = [{ bearerAuth: [] }];
  };

  it('pass: new operation, event, optional fields and parameters, enum values, looser requests, tighter responses', () => {
    expect(after(additive)).toEqual([]);
  });

  it('are listed for the changelog, each with who it concerns', () => {
    const [base, revision] = [released(), released()];
    additive(revision);
    const listed = compareReleases(base, revision).additive.map(
      (change) => `${change.rule} ${change.pointer} ${change.audience.join(',')}`,
    );
    expect(listed).toEqual(
      expect.arrayContaining([
        'operation-added #/paths/~1v1~1things~1{id}/delete clients',
        'event-type-added #/webhooks/thing.deleted/post receivers',
        'parameter-added #/paths/~1v1~1things/get/parameters/2 clients',
        'parameter-added #/webhooks/thing.created/post/parameters/2 receivers',
        'status-code-added #/paths/~1v1~1things/get/responses/429 clients',
        'response-header-added #/paths/~1v1~1things/get/responses/200/headers/ETag clients',
        'media-type-added #/paths/~1v1~1things/post/requestBody/content/application~1merge-patch+json clients',
        'field-added #/components/schemas/ThingWrite/properties/colour clients',
        'field-added #/components/schemas/Thing/properties/created_by clients',
        'enum-value-added #/components/schemas/Kind/enum clients',
      ]),
    );
  });

  it('every breaking rule of the catalogue was seen failing a pair above', () => {
    expect([...found].sort()).toEqual(Object.keys(BREAKING_RULES).sort());
  });
});

describe('one compatibility model', () => {
  // Each change the gate passes is one the document's Versioning section allows within v1, in its words.
  const SECTION_ROW: Record<AdditiveRuleId, RegExp> = {
    'operation-added': /\| new operations, /,
    'event-type-added': /\| new event types \|/,
    'parameter-added': /new optional request fields, parameters and headers \|/,
    'status-code-added': /\| new statuses of an operation \|/,
    'response-header-added': /\| new response headers and delivery headers \|/,
    'media-type-added': /\| new media types of a request or response body \|/,
    'field-added': /(optional request fields.*\n\| new fields in response bodies and event bodies \|)/,
    'enum-value-added': /\| new values in an enumeration the service sends [^\n]*\n\| new values in an enumeration you send \|/,
  };
  const section = /## Versioning\n([\s\S]*?)(\n## |$)/.exec(loadDocument().info.description ?? '')![1]!;

  it.each(Object.entries(SECTION_ROW))('%s is a row of the Versioning section', (_rule, row) => {
    expect(section).toMatch(row);
  });
});
