// Every named example validates against its schema (Ajv 2020-12 with formats), and payloads broken
// on purpose are rejected, which proves the schemas are not vacuous.

import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { listMediaTypes, listOperations, listWebhookOperations, loadDocument, resolveRef } from '../../packages/api/src/document.ts';
import { createSchemaValidator, schemaPointer } from '../../packages/api/src/schema-validator.ts';

const doc = loadDocument();
const validator = createSchemaValidator(doc);
const bodies = listMediaTypes(doc);

function expectValid(pointer: string, value: unknown) {
  const result = validator.validate(pointer, value);
  expect(result.valid ? 'valid' : result.message).toBe('valid');
}

function expectInvalid(pointer: string, value: unknown) {
  expect(validator.validate(pointer, value).valid, JSON.stringify(value)).toBe(false);
}

describe('named examples validate', () => {
  it('every request, response and webhook body has at least one named example', () => {
    const missing = bodies.filter((b) => b.examples.length === 0).map((b) => b.where);
    expect(missing).toEqual([]);
  });

  for (const body of bodies) {
    for (const example of body.examples) {
      it(`${body.where} · ${example.name}`, () => expectValid(body.schemaPointer, example.value));
    }
  }

  const parameters = [...listOperations(doc), ...listWebhookOperations(doc)].flatMap(({ operation, path }) =>
    [...((doc.paths?.[path]?.parameters as unknown[]) ?? []), ...(operation.parameters ?? [])].map((p) =>
      resolveRef<OpenAPIV3_1.ParameterObject>(doc, p as OpenAPIV3_1.ParameterObject),
    ),
  );
  const withExamples = [
    ...new Map(parameters.filter((p) => p.example !== undefined).map((p) => [`${p.in}:${p.name}:${JSON.stringify(p.schema)}`, p])).values(),
  ];
  it('parameters carry examples', () => expect(withExamples.length).toBeGreaterThan(8));
  for (const parameter of withExamples) {
    it(`${parameter.in} parameter ${parameter.name} example`, () => {
      const result = createSchemaValidator({
        ...doc,
        components: { ...doc.components, schemas: { ...doc.components?.schemas, __param: parameter.schema as OpenAPIV3_1.SchemaObject } },
      }).validate(schemaPointer('__param'), parameter.example);
      expect(result.valid ? 'valid' : result.message).toBe('valid');
    });
  }
});

// Mutations derived from a valid example: they must all be rejected.
function mutations(valid: Record<string, unknown>, requiredFields: string[]) {
  const out: [string, unknown][] = [['unknown field', { ...valid, colour: 'blue' }]];
  for (const field of requiredFields) {
    const { [field]: _, ...rest } = valid;
    out.push([`missing ${field}`, rest]);
  }
  for (const field of Object.keys(valid)) {
    // Every schema object is closed, so an object with an unknown key is the wrong value for any field.
    out.push([`wrong type for ${field}`, { ...valid, [field]: { unexpected: true } }]);
  }
  return out;
}

const firstExample = (where: string) => {
  const body = bodies.find((b) => b.where === where);
  if (!body?.examples[0]) throw new Error(`no example at ${where}`);
  return { pointer: body.schemaPointer, value: body.examples[0].value as Record<string, unknown> };
};

const component = (name: string) => resolveRef<OpenAPIV3_1.SchemaObject>(doc, doc.components!.schemas![name]!);

describe('invalid payloads are rejected', () => {
  const cases: [string, string][] = [
    ['PolicyWrite', 'POST /v1/policies request application/json'],
    ['FindingCreate', 'POST /v1/findings request application/json'],
    ['FindingUpdate', 'PUT /v1/findings/{id} request application/json'],
    ['WebhookCreate', 'POST /v1/webhooks request application/json'],
    ['WebhookUpdate', 'PUT /v1/webhooks/{id} request application/json'],
    ['Policy', 'GET /v1/policies/{id} → 200 application/json'],
    ['Finding', 'GET /v1/findings/{id} → 200 application/json'],
    ['Webhook', 'GET /v1/webhooks/{id} → 200 application/json'],
    ['Problem', 'GET /v1/policies/{id} → 404 application/problem+json'],
    ['FindingCreatedEvent', 'POST finding.created request application/json'],
    ['FindingResolvedEvent', 'POST finding.resolved request application/json'],
    ['ComplianceChangedEvent', 'POST compliance.changed request application/json'],
    ['DeviceConnectedEvent', 'POST device.connected request application/json'],
    ['DeviceDisconnectedEvent', 'POST device.disconnected request application/json'],
    ['ScanCompletedEvent', 'POST scan.completed request application/json'],
  ];
  for (const [name, where] of cases) {
    describe(name, () => {
      const { pointer, value } = firstExample(where);
      it('its first example is valid', () => expectValid(pointer, value));
      for (const [label, mutated] of mutations(value, component(name).required ?? [])) {
        it(`rejects: ${label}`, () => expectInvalid(pointer, mutated));
      }
    });
  }

  const policy = firstExample('POST /v1/policies request application/json').value;
  const finding = firstExample('PUT /v1/findings/{id} request application/json').value;
  const webhook = firstExample('POST /v1/webhooks request application/json').value;
  const event = firstExample('POST finding.created request application/json').value;
  const eventData = event.data as Record<string, unknown>;
  const targeted: [string, string, unknown][] = [
    ['PolicyWrite', 'empty name', { ...policy, name: '' }],
    ['PolicyWrite', 'name over 128 characters', { ...policy, name: 'x'.repeat(129) }],
    ['PolicyWrite', 'unknown severity', { ...policy, severity: 'urgent' }],
    ['PolicyWrite', 'unknown framework', { ...policy, frameworks: [{ framework: 'hipaa', control: '1' }] }],
    ['PolicyWrite', 'rule in another language', { ...policy, rule: { language: 'cel', source: 'true' } }],
    ['PolicyWrite', 'more than 32 frameworks', { ...policy, frameworks: Array(33).fill({ framework: 'cis', control: '1.1' }) }],
    ['FindingUpdate', 'resolved without a resolution', { ...finding, status: 'resolved', resolution: undefined }],
    ['FindingUpdate', 'resolved with a suppression reason', { ...finding, status: 'resolved', resolution: { reason: 'wont_fix' } }],
    ['FindingUpdate', 'suppressed with a resolution reason', { ...finding, status: 'suppressed', resolution: { reason: 'fixed' } }],
    ['FindingUpdate', 'open with a resolution', { ...finding, status: 'open', resolution: { reason: 'fixed' } }],
    ['FindingUpdate', 'unknown status', { ...finding, status: 'closed' }],
    ['FindingUpdate', 'policy id with the wrong prefix', { ...finding, policy_id: 'fnd_01jbz1a2b3c4d5e6f7g8h9j0k1' }],
    ['FindingUpdate', 'policy id with a non-Crockford letter', { ...finding, policy_id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0ku' }],
    ['FindingUpdate', 'policy id in upper case', { ...finding, policy_id: 'pol_01JBZ1A2B3C4D5E6F7G8H9J0K1' }],
    ['WebhookCreate', 'no events', { ...webhook, events: [] }],
    ['WebhookCreate', 'repeated events', { ...webhook, events: ['finding.created', 'finding.created'] }],
    ['WebhookCreate', 'unknown event type', { ...webhook, events: ['finding.updated'] }],
    ['WebhookCreate', 'ftp URL', { ...webhook, url: 'ftp://siem.acme.example/in' }],
    ['WebhookCreate', 'URL over 2048 characters', { ...webhook, url: `https://a.example/${'x'.repeat(2040)}` }],
    ['WebhookCreate', 'secret under 16 characters', { ...webhook, secret: 'short' }],
    ['WebhookCreate', 'secret over 256 characters', { ...webhook, secret: 's'.repeat(257) }],
    ['FindingCreatedEvent', 'another event name', { ...event, event: 'finding.resolved' }],
    ['FindingCreatedEvent', 'timestamp with an offset instead of Z', { ...event, timestamp: '2026-11-02T10:30:00+01:00' }],
    ['FindingCreatedEvent', 'timestamp that is not a date', { ...event, timestamp: 'yesterday' }],
    ['FindingCreatedEvent', 'data without finding_id', { ...event, data: { ...eventData, finding_id: undefined } }],
    ['FindingCreatedEvent', 'data with an unknown field', { ...event, data: { ...eventData, hostname: 'x' } }],
  ];
  for (const [name, label, value] of targeted) {
    it(`${name} rejects: ${label}`, () => expectInvalid(schemaPointer(name), JSON.parse(JSON.stringify(value))));
  }
});
