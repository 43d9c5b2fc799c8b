// The Prism mock on the bundled document (static examples): every operation answers as documented,
// Prefer picks statuses and named examples, auth and request validation behave like the contract.

import { loadDocument } from 'secmon-api/src/document';
import { createSchemaValidator, schemaPointer } from 'secmon-api/src/schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { staticMock } from '../../../test/support/static-mock.ts';
import type { MockServer } from '../src/prism.ts';
import { exampleRequests, mediaTypeOf } from './operations.ts';

const doc = loadDocument();
const validator = createSchemaValidator(doc);
const operations = exampleRequests(doc);
const withBody = operations.filter((operation) => operation.body !== undefined);
const AUTH = { authorization: 'Bearer mock-test-key' };

let mock: MockServer;
beforeAll(async () => {
  mock = await staticMock();
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

  it.each(operations.filter((operation) => operation.statuses.includes('304')))(
    '$label can answer 304 with an ETag and no body',
    async (operation) => {
      const response = await call(operation, { ...AUTH, prefer: 'code=304' });
      expect(response.status).toBe(304);
      expect(response.headers.get('etag')).toMatch(/^"/);
    },
  );
});

describe('request validation', () => {
  const problem = schemaPointer('Problem');

  async function expectProblem(response: Response, status: number, kind?: string) {
    expect(response.status).toBe(status);
    expect(mediaTypeOf(response.headers.get('content-type'))).toBe('application/problem+json');
    const body = (await response.json()) as { type: string; instance: string; errors?: { pointer: string; message: string }[] };
    const result = validator.validate(problem, body);
    expect(result.valid, result.valid ? '' : result.message).toBe(true);
    expect(body).toMatchObject({ status });
    if (kind) expect(body.type).toBe(`https://secmon.dev/problems/${kind}`);
    return body;
  }

  it.each(withBody)('$label refuses an unknown field with a 400 problem naming it', async (operation) => {
    const body = await expectProblem(
      await call(operation, AUTH, { ...(operation.body as object), colour: 'red' }),
      400,
      'validation-error',
    );
    expect(body.errors).toEqual([{ pointer: '/body/colour', message: 'is not a known field' }]);
    expect(body.instance).toBe(operation.path);
  });

  it.each(withBody)('$label refuses a body of the wrong type with a 400 problem', async (operation) => {
    await expectProblem(await call(operation, AUTH, ['not', 'an', 'object']), 400);
  });

  it.each(withBody)('$label refuses a missing body with a 400 problem', async (operation) => {
    const response = await fetch(mock.url + operation.path, {
      method: operation.method,
      headers: { ...AUTH, 'content-type': 'application/json' },
    });
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
    const body = await expectProblem(
      await call(updateFinding, AUTH, { title: 'SSH root login enabled', severity: 'high', status: 'resolved' }),
      400,
    );
    expect(body.errors).toContainEqual({ pointer: '/body', message: "must have required property 'resolution'" });
  });

  it('enforces if/then: a resolution reason that belongs to another status is a 400', async () => {
    const request = { title: 'SSH root login enabled', severity: 'high', status: 'resolved', resolution: { reason: 'wont_fix' } };
    const body = await expectProblem(await call(updateFinding, AUTH, request), 400);
    expect(body.errors?.map((error) => error.pointer)).toContain('/body/resolution/reason');
  });

  it('accepts null where oneOf allows type null (3.1)', async () => {
    const body = { title: 'SSH root login enabled', severity: 'high', status: 'open', resolution: null, policy_id: null };
    const response = await call(updateFinding, AUTH, body);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('refuses a malformed path id and an out-of-range limit with 400 problems pointing at them', async () => {
    const id = await expectProblem(await fetch(`${mock.url}/v1/policies/not-an-id`, { headers: AUTH }), 400, 'validation-error');
    expect(new Set(id.errors?.map((error) => error.pointer))).toEqual(new Set(['/path/id']));
    const limit = await expectProblem(await fetch(`${mock.url}/v1/findings?limit=101`, { headers: AUTH }), 400, 'validation-error');
    expect(limit.errors).toEqual([{ pointer: '/query/limit', message: 'must be <= 100' }]);
  });
});

describe('the contract shim in front of Prism', () => {
  const problemOf = async (response: Response, status: number, kind: string) => {
    expect(response.status).toBe(status);
    expect(mediaTypeOf(response.headers.get('content-type'))).toBe('application/problem+json');
    const body = (await response.json()) as { type: string; errors?: unknown[] };
    expect(validator.validate(schemaPointer('Problem'), body).valid).toBe(true);
    expect(body.type).toBe(`https://secmon.dev/problems/${kind}`);
    return body;
  };

  it.each(operations.filter((operation) => operation.method === 'GET'))('$label refuses an unknown query parameter', async (operation) => {
    const body = await problemOf(await fetch(`${mock.url}${operation.path}?colour=red`, { headers: AUTH }), 400, 'validation-error');
    expect(body.errors).toEqual([{ pointer: '/query/colour', message: 'is not a known parameter' }]);
  });

  it.each(withBody)('$label answers malformed JSON with a malformed-json problem', async (operation) => {
    const response = await fetch(mock.url + operation.path, {
      method: operation.method,
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":',
    });
    await problemOf(response, 400, 'malformed-json');
  });

  it('refuses an id whose percent-encoding is not UTF-8 as the server does, instead of failing on it', async () => {
    const body = await problemOf(await fetch(`${mock.url}/v1/policies/%C3%28`, { headers: AUTH }), 400, 'validation-error');
    expect(body.errors).toEqual([{ pointer: '/path', message: 'is not a valid percent-encoded URI path' }]);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const body = JSON.stringify({ name: 'x', severity: 'high', description: 'a'.repeat(1024 * 1024) });
    const response = await fetch(`${mock.url}/v1/policies`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body,
    });
    await problemOf(response, 413, 'payload-too-large');
  });

  it('answers unknown routes with not-found and unknown methods with method-not-allowed and Allow', async () => {
    await problemOf(await fetch(`${mock.url}/v1/devices`, { headers: AUTH }), 404, 'not-found');
    const response = await fetch(`${mock.url}/v1/policies/pol_01jbz1a2b3c4d5e6f7g8h9j0k1`, { method: 'PATCH', headers: AUTH });
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
    await problemOf(response, 405, 'method-not-allowed');
  });

  it('lets a browser app read its problems (CORS) and keeps the rate-limit headers', async () => {
    const response = await fetch(`${mock.url}/v1/policies?colour=red`, { headers: { ...AUTH, origin: 'http://localhost:5173' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('ratelimit')).toMatch(/r=\d+/);
    await problemOf(response, 400, 'validation-error');
  });

  it('says on a 429 that no request remains until Retry-After', async () => {
    const response = await fetch(`${mock.url}/v1/findings`, { headers: { ...AUTH, prefer: 'code=429' } });
    await problemOf(response, 429, 'rate-limited');
    expect(response.headers.get('ratelimit')).toBe(`"120-in-1min"; r=0; t=${response.headers.get('retry-after')}`);
  });

  it('gives a problem the path of the request it answers as its instance', async () => {
    const getFinding = operations.find((operation) => operation.operationId === 'getFinding')!;
    const body = await problemOf(await call(getFinding, { ...AUTH, prefer: 'code=404' }), 404, 'not-found');
    expect(body).toMatchObject({ instance: getFinding.path });
    // The shared 404 example names a policy; answering for a finding, it names the finding's id.
    expect((body as { detail?: string }).detail).toContain(getFinding.path.split('/').at(-1));
    expect((body as { detail?: string }).detail).not.toMatch(/pol_/);
    const unauthorised = (await (await call(getFinding, {})).json()) as { instance: string };
    expect(unauthorised.instance).toBe(getFinding.path);
  });

  it('a finding PUT without status gets one error: the conditions on status apply only when it is present', async () => {
    const response = await fetch(`${mock.url}/v1/findings/fnd_01jbz3k7q2w9x8v6t5r4p3n2m1`, {
      method: 'PUT',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'SSH root login enabled', severity: 'high' }),
    });
    const body = (await problemOf(response, 400, 'validation-error')) as { errors: { message: string }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.message).toContain("'status'");
  });

  it('returns a 400 example verbatim when Prefer names it on a valid request', async () => {
    const listFindings = operations.find((operation) => operation.operationId === 'listFindings')!;
    const example = listFindings.responses
      .get('400 application/problem+json')!
      .examples.find((candidate) => candidate.name === 'invalidCursor')!;
    const response = await fetch(`${mock.url}/v1/findings?limit=10`, { headers: { ...AUTH, prefer: 'code=400, example=invalidCursor' } });
    expect(await response.json()).toEqual(example.value);
  });

  it('answers an invalid request with its own validation problem whatever Prefer asks for', async () => {
    const response = await fetch(`${mock.url}/v1/findings?limit=1000`, { headers: { ...AUTH, prefer: 'code=200' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; instance: string; errors: { pointer: string }[] };
    expect(body.type).toBe('https://secmon.dev/problems/validation-error');
    expect(body.instance).toBe('/v1/findings');
    expect(body.errors.map((error) => error.pointer)).toEqual(['/query/limit']);
  });

  it('answers a Prefer naming an undocumented status or example with a problem listing the documented ones', async () => {
    for (const prefer of ['code=418', 'example=nope']) {
      const response = await fetch(`${mock.url}/v1/policies`, { headers: { ...AUTH, prefer } });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { type: string; errors: { pointer: string; message: string }[] };
      expect(body.type).toBe('https://secmon.dev/problems/validation-error');
      expect(body.errors[0]!.pointer).toBe('/headers/Prefer');
      expect(body.errors[0]!.message).toContain('code=200 (examples: firstPage, lastPage)');
    }
  });
});

describe('the launcher', () => {
  it('reports the start-up time and a loopback URL with the chosen port', () => {
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    expect(mock.startupMs).toBeGreaterThan(0);
    expect(mock.output()).toMatch(/Prism is listening/);
  });
});
