// What the breaking-change gate lets through, on a pair of small documents (rule-pairs.ts): additive
// edits pass and are listed for the changelog, each as a change the Versioning section allows.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../packages/api/src/document.ts';
import type { AdditiveRuleId } from '../../scripts/breaking/catalogue.ts';
import { compareReleases } from '../../scripts/breaking/compare.ts';
import { after, event, problem, released, schemas, things } from './rule-pairs.ts';

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
