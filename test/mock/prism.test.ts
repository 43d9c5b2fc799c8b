// The Prism mock on the bundled document (static examples): every operation answers as documented,
// Prefer picks statuses and named examples, auth and request validation behave like the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../lib/document.ts';
import { createSchemaValidator, schemaPointer } from '../../lib/schema-validator.ts';
import { startMock, type MockServer } from '../../mock/prism.ts';
import { exampleRequests, mediaTypeOf } from './operations.ts';

const doc = loadDocument();
const validator = createSchemaValidator(doc);
const operations = exampleRequests(doc);
const withBody = operations.filter((operation) => operation.body !== undefined);
const AUTH = { authorization: 'Bearer mock-test-key' };

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

function call(operation: (typeof operations)[number], headers: Record<string, string> = AUTH, body = operation.body) {
  return fetch(mock.url + operation.path, {
    method: operation.method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Asserts the answer is documented for the operation and its body matches the documented schema. */
async function expectDocumented(operation: (typeof operations)[number], response: Response): Promise<unknown> {
  expect(operation.statuses, `${operation.label} answered an undocumented ${response.status}`).toContain(String(response.status));
  const text = await response.text();
  const mediaType = mediaTypeOf(response.headers.get('content-type'));
  if (text === '') {
    expect([...operation.responses.keys()].some((key) => key.startsWith(`${response.status} `))).toBe(false);
    return undefined;
  }
  const documented = operation.responses.get(`${response.status} ${mediaType}`);
  expect(documented, `${operation.label} → ${response.status} ${mediaType} is not documented`).toBeDefined();
  const body: unknown = JSON.parse(text);
  const result = validator.validate(documented!.schemaPointer, body);
  expect(result.valid, result.valid ? '' : `${operation.label}: ${result.message}`).toBe(true);
  for (const header of operation.requiredHeaders.get(String(response.status)) ?? []) {
    expect(response.headers.has(header), `${operation.label} → ${response.status} lacks ${header}`).toBe(true);
  }
  return body;
}

it('covers the 15 operations of the contract', () => {
  expect(operations).toHaveLength(15);
});

describe.each(operations)('$label', (operation) => {
  it('answers an authorised request from the examples with a documented success', async () => {
    const response = await call(operation);
    expect(response.status).toBeLessThan(300);
    await expectDocumented(operation, response);
  });

  it('answers 401 with WWW-Authenticate and a problem when no credentials are sent', async () => {
    const response = await call(operation, {});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const body = await expectDocumented(operation, response);
    expect(body).toMatchObject({ status: 401, type: 'https://secmon.dev/problems/unauthorized' });
  });

  it('answers 401 to credentials that are not a bearer token', async () => {
    const response = await call(operation, { authorization: 'Basic bW9jazptb2Nr' });
    expect(response.status).toBe(401);
    await response.body?.cancel();
  });
});

describe('Prefer picks a documented status and named example', () => {
  const choices = operations.flatMap((operation) =>
    [...operation.responses.values()].flatMap((media) =>
      media.examples.map((example) => ({ operation, media, example, label: `${operation.label} → ${media.status} ${example.name}` })),
    ),
  );

  it('has named examples for every documented response body', () => {
    for (const operation of operations) {
      for (const media of operation.responses.values()) expect(media.examples.length, media.where).toBeGreaterThan(0);
    }
  });

  it.each(choices)('$label is returned verbatim', async ({ operation, media, example }) => {
    const response = await call(operation, { ...AUTH, prefer: `code=${media.status}, example=${example.name}` });
    expect(response.status).toBe(Number(media.status));
    expect(mediaTypeOf(response.headers.get('content-type'))).toBe(media.mediaType);
    expect(await response.json()).toEqual(example.value);
  });

  it.each(operations.filter((operation) => operation.statuses.includes('304')))('$label can answer 304 with an ETag and no body', async (operation) => {
    const response = await call(operation, { ...AUTH, prefer: 'code=304' });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toMatch(/^"/);
  });
});

describe('request validation', () => {
  const problem = schemaPointer('Problem');

  async function expectProblem(response: Response, status: number) {
    expect(response.status).toBe(status);
    expect(mediaTypeOf(response.headers.get('content-type'))).toBe('application/problem+json');
    const body: unknown = await response.json();
    expect(validator.validate(problem, body).valid).toBe(true);
    expect(body).toMatchObject({ status });
    // Prism's body is a canned example; what it actually rejected is in sl-violations.
    return JSON.parse(response.headers.get('sl-violations') ?? '[]') as { code: string | number; message: string }[];
  }

  it.each(withBody)('$label refuses an unknown field with a 400 problem', async (operation) => {
    const violations = await expectProblem(await call(operation, AUTH, { ...(operation.body as object), colour: 'red' }), 400);
    expect(violations.map((violation) => violation.code)).toContain('additionalProperties');
  });

  it.each(withBody)('$label refuses a body of the wrong type with a 400 problem', async (operation) => {
    await expectProblem(await call(operation, AUTH, ['not', 'an', 'object']), 400);
  });

  it.each(withBody)('$label refuses a missing body with a 400 problem', async (operation) => {
    const response = await fetch(mock.url + operation.path, { method: operation.method, headers: { ...AUTH, 'content-type': 'application/json' } });
    await expectProblem(response, 400);
  });

  it.each(withBody)('$label refuses a form-encoded body with a 415 problem', async (operation) => {
    const response = await fetch(mock.url + operation.path, {
      method: operation.method,
      headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    await expectProblem(response, 415);
  });

  const updateFinding = operations.find((operation) => operation.operationId === 'updateFinding')!;

  it('enforces if/then: resolving a finding without a resolution is a 400', async () => {
    const violations = await expectProblem(await call(updateFinding, AUTH, { title: 'SSH root login enabled', severity: 'high', status: 'resolved' }), 400);
    expect(violations.map((violation) => violation.code)).toContain('if');
  });

  it('enforces if/then: a resolution reason that belongs to another status is a 400', async () => {
    const body = { title: 'SSH root login enabled', severity: 'high', status: 'resolved', resolution: { reason: 'wont_fix' } };
    await expectProblem(await call(updateFinding, AUTH, body), 400);
  });

  it('accepts null where oneOf allows type null (3.1)', async () => {
    const body = { title: 'SSH root login enabled', severity: 'high', status: 'open', resolution: null, policy_id: null };
    const response = await call(updateFinding, AUTH, body);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('refuses a malformed path id and an out-of-range limit with 400 problems', async () => {
    await expectProblem(await fetch(`${mock.url}/v1/policies/not-an-id`, { headers: AUTH }), 400);
    await expectProblem(await fetch(`${mock.url}/v1/findings?limit=101`, { headers: AUTH }), 400);
  });
});

describe('the launcher', () => {
  it('reports the start-up time and a loopback URL with the chosen port', () => {
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    expect(mock.startupMs).toBeGreaterThan(0);
    expect(mock.output()).toMatch(/Prism is listening/);
  });
});
