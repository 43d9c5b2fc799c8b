// Structural rules of the document that a linter cannot express.

import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { listMediaTypes, listOperations, listWebhookOperations, loadDocument, resolveRef } from '../../packages/api/src/document.ts';

const doc = loadDocument();
const operations = listOperations(doc);
const webhooks = listWebhookOperations(doc);
const EVENT_TYPES = [
  'finding.created',
  'finding.resolved',
  'device.connected',
  'device.disconnected',
  'scan.completed',
  'compliance.changed',
];
const response = (r: unknown) => resolveRef<OpenAPIV3_1.ResponseObject>(doc, r as OpenAPIV3_1.ResponseObject);

describe('document conventions', () => {
  it('is OpenAPI 3.1 with the 2020-12 dialect (Prism ignores 2020-12 keywords without it)', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('has exactly the 15 operations (list, create, read, replace and delete of three resources), all under /v1', () => {
    const expected = ['policies', 'findings', 'webhooks'].flatMap((r) => [
      `get /v1/${r}`,
      `post /v1/${r}`,
      `get /v1/${r}/{id}`,
      `put /v1/${r}/{id}`,
      `delete /v1/${r}/{id}`,
    ]);
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected.sort());
  });

  for (const { method, path, operation } of [...operations, ...webhooks]) {
    const label = `${method.toUpperCase()} ${path}`;
    describe(label, () => {
      it('has operationId, summary, description and one tag', () => {
        expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
        expect(operation.summary?.length).toBeGreaterThan(5);
        expect(operation.description?.length).toBeGreaterThan(20);
        expect(operation.tags).toHaveLength(1);
      });
      it('documents its 4xx responses as RFC 9457 problems', () => {
        const errors = Object.entries(operation.responses ?? {}).filter(([s]) => s.startsWith('4'));
        expect(errors.length).toBeGreaterThan(0);
        for (const [status, r] of errors) {
          expect(Object.keys(response(r).content ?? {}), status).toEqual(['application/problem+json']);
        }
      });
      if (operation.requestBody) {
        it('requires its JSON request body', () => {
          const body = resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody!);
          expect(body.required).toBe(true);
          expect(Object.keys(body.content)).toEqual(['application/json']);
        });
      }
    });
  }

  for (const { method, path, operation } of operations) {
    describe(`${method.toUpperCase()} ${path}`, () => {
      it('needs a bearer key with a read or write scope', () => {
        const scope = method === 'get' ? 'read' : 'write';
        expect(operation.security).toEqual([{ bearerAuth: [scope] }]);
      });
      it('documents 400, 401, 403, 429 and 500', () => {
        expect(Object.keys(operation.responses ?? {})).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500']));
      });
      it('sends RateLimit headers on success, and Location + ETag on create, ETag on read and update', () => {
        for (const [status, r] of Object.entries(operation.responses ?? {}).filter(([s]) => s.startsWith('2'))) {
          const headers = Object.keys(response(r).headers ?? {});
          expect(headers).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
          if (status === '201') expect(headers).toEqual(expect.arrayContaining(['Location', 'ETag']));
          if (status === '200' && path.endsWith('{id}')) expect(headers).toContain('ETag');
        }
      });
      it('sends WWW-Authenticate with 401', () => {
        expect(Object.keys(response(operation.responses?.['401']).headers ?? {})).toContain('WWW-Authenticate');
      });
    });
  }
});

describe('webhooks', () => {
  it('describes exactly the six event types', () => {
    expect(webhooks.map((w) => w.path).sort()).toEqual([...EVENT_TYPES].sort());
    expect(webhooks.every((w) => w.method === 'post')).toBe(true);
  });

  for (const { path: event, operation } of webhooks) {
    it(`${event}: body is { event (const), timestamp, data } and the delivery headers are declared`, () => {
      const body = resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody!);
      const schema = resolveRef<OpenAPIV3_1.SchemaObject>(doc, body.content['application/json']!.schema!);
      expect(schema.required).toEqual(['event', 'timestamp', 'data']);
      expect(schema.additionalProperties).toBe(false);
      expect((schema.properties!.event as OpenAPIV3_1.SchemaObject).const).toBe(event);
      const headers = (operation.parameters ?? []).map((p) => resolveRef<OpenAPIV3_1.ParameterObject>(doc, p));
      expect(headers.every((h) => h.in === 'header')).toBe(true);
      expect(headers.map((h) => h.name).sort()).toEqual([
        'User-Agent',
        'X-Service-Delivery',
        'X-Service-Event',
        'X-Service-Signature',
        'X-Service-Webhook-Id',
        'webhook-id',
        'webhook-signature',
        'webhook-timestamp',
      ]);
      expect(Object.keys(operation.responses ?? {})).toEqual(expect.arrayContaining(['200', '410', 'default']));
    });
  }

  it('finding.created data requires finding_id, severity, title and device_id (fixed by the service)', () => {
    const data = resolveRef<OpenAPIV3_1.SchemaObject>(doc, doc.components!.schemas!.FindingCreatedEvent!).properties!
      .data as OpenAPIV3_1.SchemaObject;
    expect(data.required).toEqual(expect.arrayContaining(['finding_id', 'severity', 'title', 'device_id']));
  });
});

// Walks every schema reachable in components and operations, with a path for messages.
function* schemas(node: unknown, at: string): Generator<[string, OpenAPIV3_1.SchemaObject]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* schemas(item, `${at}/${i}`);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if ('type' in record || 'const' in record || 'enum' in record) yield [at, record as OpenAPIV3_1.SchemaObject];
  for (const [key, value] of Object.entries(record)) {
    if (key === 'examples' || key === 'example') continue;
    yield* schemas(value, `${at}/${key}`);
  }
}

describe('every schema is bounded and closed', () => {
  const all = [
    ...schemas(doc.components?.schemas, '#/components/schemas'),
    ...schemas(doc.components?.parameters, '#/components/parameters'),
    ...schemas(doc.components?.headers, '#/components/headers'),
    ...schemas(doc.paths, '#/paths'),
    ...schemas(doc.webhooks, '#/webhooks'),
  ];
  const types = (s: OpenAPIV3_1.SchemaObject) => ([] as string[]).concat((s.type as string | string[] | undefined) ?? []);

  it('walks a meaningful number of schemas', () => expect(all.length).toBeGreaterThan(100));

  it('strings have maxLength (or are an enum or const)', () => {
    const open = all.filter(([, s]) => types(s).includes('string') && s.maxLength === undefined && !s.enum && s.const === undefined);
    expect(open.map(([at]) => at)).toEqual([]);
  });
  it('arrays have maxItems', () => {
    expect(all.filter(([, s]) => types(s).includes('array') && s.maxItems === undefined).map(([at]) => at)).toEqual([]);
  });
  it('numbers have minimum and maximum', () => {
    const open = all.filter(
      ([, s]) => types(s).some((t) => t === 'integer' || t === 'number') && (s.minimum === undefined || s.maximum === undefined),
    );
    expect(open.map(([at]) => at)).toEqual([]);
  });
  it('objects with properties are closed', () => {
    const open = all.filter(
      ([, s]) =>
        s.properties && s.additionalProperties !== false && (s as { unevaluatedProperties?: unknown }).unevaluatedProperties !== false,
    );
    // Sub-schemas of if/then branches only narrow a closed parent; they are not objects on their own.
    expect(open.map(([at]) => at).filter((at) => !/\/(then|if)(\/|$)/.test(at))).toEqual([]);
  });
  it('identifiers are typed by prefix', () => {
    for (const [name, prefix] of [
      ['PolicyId', 'pol'],
      ['FindingId', 'fnd'],
      ['WebhookId', 'whk'],
      ['DeviceId', 'dev'],
      ['ScanId', 'scn'],
    ]) {
      const schema = resolveRef<OpenAPIV3_1.SchemaObject>(doc, doc.components!.schemas![name!]!);
      expect(schema.pattern).toBe(`^${prefix}_[0-7][0-9a-hjkmnp-tv-z]{25}$`);
    }
  });
  it('every anyOf/oneOf branch carries its own type (generators read a branch alone)', () => {
    const untyped = all.flatMap(([at, s]) =>
      (['anyOf', 'oneOf'] as const).flatMap((combinator) =>
        (s[combinator] ?? []).flatMap((branch, i) => {
          const resolved = resolveRef<OpenAPIV3_1.SchemaObject>(doc, branch);
          return resolved.type === undefined && resolved.const === undefined ? [`${at}/${combinator}/${i}`] : [];
        }),
      ),
    );
    expect(untyped).toEqual([]);
  });
  it('every body has examples', () => {
    expect(listMediaTypes(doc).filter((m) => m.examples.length === 0)).toEqual([]);
  });
});
