// Each breaking-change rule on a pair of small documents: the released one below and an edited
// copy. Additive edits must pass.
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../lib/document.ts';
import { findBreakingChanges } from '../../scripts/breaking/compare.ts';

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
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingWrite' } } },
          },
          responses: {
            '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          },
        },
      },
    },
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
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    components: {
      schemas: {
        Kind: { type: 'string', enum: ['small', 'large'] },
        ThingWrite: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 128 },
            kind: { $ref: '#/components/schemas/Kind' },
            note: { type: ['string', 'null'], maxLength: 512 },
            tags: { type: 'array', maxItems: 10, items: { type: 'string', pattern: '^[a-z]+$' } },
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

/** The changes found after applying `edit` to a copy of the released document. */
function after(edit: (doc: any) => void) {
  const revision = released();
  edit(revision);
  return findBreakingChanges(released(), revision);
}

const rulesOf = (changes: ReturnType<typeof after>) => [...new Set(changes.map((change) => change.rule))];

describe('breaking-change rules', () => {
  it('finds nothing between identical documents', () => {
    expect(after(() => {})).toEqual([]);
  });

  it('operation-removed: an API operation is gone', () => {
    const changes = after((doc) => delete doc.paths['/v1/things'].post);
    expect(changes).toEqual([
      { rule: 'operation-removed', pointer: '#/paths/~1v1~1things/post', message: 'POST /v1/things was removed' },
    ]);
  });

  it('operation-removed: a path renamed', () => {
    const changes = after((doc) => {
      doc.paths['/v1/items'] = doc.paths['/v1/things'];
      delete doc.paths['/v1/things'];
    });
    expect(changes.map((change) => change.message)).toEqual(['GET /v1/things was removed', 'POST /v1/things was removed']);
  });

  it('event-type-removed: a webhook is gone', () => {
    const changes = after((doc) => delete doc.webhooks['thing.created']);
    expect(changes).toEqual([
      { rule: 'event-type-removed', pointer: '#/webhooks/thing.created/post', message: 'webhook thing.created was removed' },
    ]);
  });

  it('operation-id-changed: generated clients rename the method', () => {
    const changes = after((doc) => (doc.paths['/v1/things'].get.operationId = 'getThings'));
    expect(changes).toMatchObject([{ rule: 'operation-id-changed', message: 'GET /v1/things: operationId listThings became getThings' }]);
  });

  it('status-code-removed: a documented status is gone or replaced', () => {
    const changes = after((doc) => {
      const responses = doc.paths['/v1/things'].post.responses;
      responses['200'] = responses['201'];
      delete responses['201'];
    });
    expect(changes).toEqual([
      { rule: 'status-code-removed', pointer: '#/paths/~1v1~1things/post/responses/201', message: 'POST /v1/things: response 201 was removed' },
    ]);
  });

  it('response-header-removed: a response header is no longer sent', () => {
    const changes = after((doc) => delete doc.paths['/v1/things'].get.responses['200'].headers.RateLimit);
    expect(changes).toMatchObject([{ rule: 'response-header-removed', message: 'GET /v1/things: response 200 no longer has the header ratelimit' }]);
  });

  it('parameter-removed: a query parameter clients send is gone', () => {
    const changes = after((doc) => doc.paths['/v1/things'].get.parameters.pop());
    expect(changes).toMatchObject([{ rule: 'parameter-removed', message: 'GET /v1/things: the query kind parameter was removed' }]);
  });

  it('required-parameter-added: a new required parameter, or an optional one made required', () => {
    const added = after((doc) =>
      doc.paths['/v1/things'].get.parameters.push({ name: 'owner', in: 'query', required: true, schema: { type: 'string' } }),
    );
    expect(added).toMatchObject([{ rule: 'required-parameter-added', message: 'GET /v1/things: the query owner parameter is now required', pointer: '#/paths/~1v1~1things/get/parameters/2' }]);
    const tightened = after((doc) => (doc.paths['/v1/things'].get.parameters[0].required = true));
    expect(rulesOf(tightened)).toEqual(['required-parameter-added']);
  });

  it('webhook-header-removed: a delivery header is gone or no longer always sent', () => {
    const removed = after((doc) => doc.webhooks['thing.created'].post.parameters.pop());
    expect(removed).toMatchObject([{ rule: 'webhook-header-removed', message: 'webhook thing.created: the delivery header X-Service-Delivery was removed' }]);
    const optional = after((doc) => (doc.webhooks['thing.created'].post.parameters[1].required = false));
    expect(optional).toMatchObject([{ rule: 'webhook-header-removed', message: 'webhook thing.created: the delivery header X-Service-Delivery is no longer always sent' }]);
  });

  it('signature-scheme-changed: the signature header format or its description', () => {
    const pattern = after((doc) => (doc.webhooks['thing.created'].post.parameters[0].schema.pattern = '^v1,[A-Za-z0-9+/=]+$'));
    expect(rulesOf(pattern).sort()).toEqual(['pattern-changed', 'signature-scheme-changed']);
    expect(pattern.find((change) => change.rule === 'signature-scheme-changed')!.message).toContain('^sha256=[0-9a-f]{64}$ → ^v1,[A-Za-z0-9+/=]+$');
    const described = after((doc) => (doc.webhooks['thing.created'].post.parameters[0].description = 'HMAC-SHA512 of the body.'));
    expect(described).toMatchObject([{ rule: 'signature-scheme-changed', message: "the X-Service-Signature header's description changed" }]);
    const removed = after((doc) => doc.webhooks['thing.created'].post.parameters.shift());
    expect(removed).toMatchObject([{ rule: 'webhook-header-removed', message: 'webhook thing.created: the delivery header X-Service-Signature was removed' }]);
  });

  it('enum-value-removed: in a request, a response and an event const', () => {
    const changes = after((doc) => (doc.components.schemas.Kind.enum = ['small']));
    expect(changes).toEqual([{ rule: 'enum-value-removed', pointer: '#/components/schemas/Kind', message: 'the value "large" was removed' }]);
    const event = after((doc) => (doc.components.schemas.ThingCreatedEvent.properties.event.const = 'thing.made'));
    expect(event).toMatchObject([{ rule: 'enum-value-removed', message: 'the value "thing.created" was removed' }]);
  });

  it('required-request-field-added: clients must now send a field', () => {
    const changes = after((doc) => doc.components.schemas.ThingWrite.required.push('kind'));
    expect(changes).toEqual([
      { rule: 'required-request-field-added', pointer: '#/components/schemas/ThingWrite/required', message: 'the request field kind is now required' },
    ]);
  });

  it('field-removed: from a response, from an event, from a request, or a response field made optional', () => {
    const response = after((doc) => delete doc.components.schemas.Thing.properties.count);
    expect(response).toEqual([
      { rule: 'field-removed', pointer: '#/components/schemas/Thing/properties/count', message: 'the response or event field count was removed' },
    ]);
    const event = after((doc) => {
      doc.components.schemas.ThingCreatedEvent.properties.data = { type: 'object', properties: { id: { type: 'string' } } };
    });
    expect(event.map((change) => change.message)).toContain('the response or event field thing_id was removed');
    const request = after((doc) => delete doc.components.schemas.ThingWrite.properties.note);
    expect(request).toMatchObject([{ rule: 'field-removed', message: 'the request field note was removed' }]);
    const optional = after((doc) => (doc.components.schemas.Thing.required = ['id', 'name']));
    expect(optional).toMatchObject([{ rule: 'field-removed', message: 'the response or event field kind is no longer always present' }]);
  });

  it('bound-narrowed: request bounds lowered, raised or added', () => {
    const changes = after((doc) => {
      const write = doc.components.schemas.ThingWrite.properties;
      write.name.maxLength = 64;
      write.name.minLength = 3;
      write.tags.maxItems = 5;
      doc.paths['/v1/things'].get.parameters[0].schema.maximum = 50;
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

  it('pattern-changed: in a request item and in a response id', () => {
    const request = after((doc) => (doc.components.schemas.ThingWrite.properties.tags.items.pattern = '^[a-z]{1,8}$'));
    expect(request).toMatchObject([{ rule: 'pattern-changed', pointer: '#/components/schemas/ThingWrite/properties/tags/items/pattern' }]);
    const response = after((doc) => (doc.components.schemas.Thing.properties.id.pattern = '^thg_[0-9a-f]{32}$'));
    expect(response).toMatchObject([{ rule: 'pattern-changed', message: 'the pattern ^thg_[0-9a-z]{26}$ became ^thg_[0-9a-f]{32}$' }]);
  });

  it('type-narrowed in a request, type-widened in a response', () => {
    const narrowed = after((doc) => (doc.components.schemas.ThingWrite.properties.note.type = 'string'));
    expect(narrowed).toEqual([
      { rule: 'type-narrowed', pointer: '#/components/schemas/ThingWrite/properties/note/type', message: 'the request type went from string|null to string' },
    ]);
    const integer = after((doc) => (doc.paths['/v1/things'].get.parameters[0].schema.type = 'string'));
    expect(rulesOf(integer)).toEqual(['type-narrowed']);
    const widened = after((doc) => (doc.components.schemas.Thing.properties.count.type = 'number'));
    expect(widened).toMatchObject([{ rule: 'type-widened', message: 'the response or event type went from integer to number' }]);
  });

  it('passes additive changes: new operation, event, optional fields and parameters, enum values, looser request bounds', () => {
    const changes = after((doc) => {
      doc.paths['/v1/things/{id}'] = { get: { operationId: 'getThing', responses: { '200': { description: 'ok' } } } };
      doc.webhooks['thing.deleted'] = structuredClone(doc.webhooks['thing.created']);
      doc.paths['/v1/things'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } });
      doc.paths['/v1/things'].get.responses['429'] = { description: 'slow down', content: problem };
      doc.paths['/v1/things'].get.responses['200'].headers.ETag = { schema: { type: 'string' } };
      doc.components.schemas.Kind.enum.push('medium');
      doc.components.schemas.ThingWrite.properties.colour = { type: 'string', maxLength: 16 };
      doc.components.schemas.ThingWrite.properties.name.maxLength = 256;
      doc.components.schemas.ThingWrite.properties.tags.items.pattern = undefined;
      doc.components.schemas.Thing.properties.created_at = { type: 'string' };
      doc.components.schemas.Thing.required.push('count');
      doc.components.schemas.Thing.properties.name.maxLength = 64;
      doc.webhooks['thing.created'].post.parameters.push({ name: 'X-Service-Webhook-Id', in: 'header', required: true, schema: { type: 'string' } });
    });
    expect(changes).toEqual([]);
  });
});
