// The operation rules of the breaking-change gate, each on a pair of small documents (rule-pairs.ts):
// operations, event types, statuses, bodies, media types and response headers.
import { describe, expect, it } from 'vitest';
import { after, event, itSawEveryRuleOf, located, rename, thing, things } from './rule-pairs.ts';

describe('operation rules', () => {
  it('finds nothing between identical documents', () => {
    expect(after(() => {})).toEqual([]);
  });

  it('operation-removed: an API operation is gone, or its path renamed', () => {
    expect(after((doc) => delete things(doc).post)).toEqual([
      { rule: 'operation-removed', pointer: '#/paths/~1v1~1things/post', message: 'POST /v1/things was removed', audience: ['clients'] },
    ]);
    const renamed = after((doc) => rename(doc.paths, '/v1/things', '/v1/items'));
    expect(renamed.map((change) => change.message)).toEqual(['GET /v1/things was removed', 'POST /v1/things was removed']);
  });

  it('a renamed path parameter is the same path', () => {
    expect(
      after((doc) => {
        thing(doc).parameters[0].name = 'thingId';
        rename(doc.paths, '/v1/things/{id}', '/v1/things/{thingId}');
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
    const replaced = after((doc) => rename(things(doc).post.responses, '201', '200'));
    expect(replaced).toMatchObject([
      {
        rule: 'status-code-removed',
        pointer: '#/paths/~1v1~1things/post/responses/201',
        message: 'POST /v1/things: response 201 was removed',
        before: ['201'],
        after: ['200'],
      },
    ]);
    const ranged = (doc: any) => rename(thing(doc).get.responses, '404', '4XX');
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
    const request = after((doc) => rename(things(doc).post.requestBody.content, 'application/json', 'application/vnd.things+json'));
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
    const wildcard = after((doc) => rename(things(doc).post.requestBody.content, 'application/json', 'application/*'));
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

itSawEveryRuleOf('operations');
