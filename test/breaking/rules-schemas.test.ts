// The schema rules of the breaking-change gate, each on a pair of small documents (rule-pairs.ts), in
// schemas at any depth and in both directions: what the service receives, and what it sends.
import { describe, expect, it } from 'vitest';
import { compareReleases } from '../../scripts/breaking/compare.ts';
import { after, itSawEveryRuleOf, located, released, rulesOf, schemas, thing, things } from './rule-pairs.ts';

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

itSawEveryRuleOf('schemas');
