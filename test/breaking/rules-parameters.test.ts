// The parameter rules of the breaking-change gate, each on a pair of small documents (rule-pairs.ts):
// request parameters on operations and path items, delivery headers and the signature scheme.
import { describe, expect, it } from 'vitest';
import { after, event, itSawEveryRuleOf, located, rulesOf, thing, things } from './rule-pairs.ts';

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

itSawEveryRuleOf('parameters');
