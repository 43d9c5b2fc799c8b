// secmon-msw in Node (msw/node, as a frontend's Vitest suite uses it), stateless: every operation
// answers a documented status with a body its schema accepts and the documented headers; requests
// the service would refuse get its problem; Prefer, scenarios and typed overrides pick answers.
import { setupServer } from 'msw/node';
import { createSecmonClient } from 'secmon-api/src/client';
import { loadDocument } from 'secmon-api/src/document';
import { createSchemaValidator } from 'secmon-api/src/schema-validator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequests, mediaTypeOf } from '../../mock/test/operations.ts';
import { createSecmonMsw } from '../src/index.ts';

const BASE = 'https://api.secmon.test';
const doc = loadDocument();
const validator = createSchemaValidator(doc);
const mock = createSecmonMsw({ baseUrl: BASE });
const server = setupServer(...mock.handlers);
// The client takes the global fetch when it is made: after listen(), which is when MSW patches it.
let api: ReturnType<typeof createSecmonClient>;
const auth = { authorization: 'Bearer frontend-test-key' };
/** Test bodies are checked field by field with expect. */
const json = (response: Response): Promise<any> => response.json();

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  api = createSecmonClient({ baseUrl: BASE, apiKey: 'frontend-test-key', maxRetries: 0 });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('every operation', () => {
  it.each(exampleRequests(doc))('$label answers its documented success with a valid body and the documented headers', async (operation) => {
    const response = await fetch(`${BASE}${operation.path}`, {
      method: operation.method,
      headers: { ...auth, ...(operation.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
    });
    expect(response.status.toString()).toMatch(/^2/);
    expect(operation.statuses).toContain(String(response.status));
    for (const name of operation.requiredHeaders.get(String(response.status)) ?? []) expect(response.headers.has(name), name).toBe(true);
    expect(response.headers.get('ratelimit')).toBeTruthy();
    if (response.status === 204) return expect(await response.text()).toBe('');
    const schema = operation.responses.get(`${response.status} ${mediaTypeOf(response.headers.get('content-type'))}`);
    expect(schema).toBeDefined();
    const body = await json(response);
    expect(validator.validate(schema!.schemaPointer, body)).toEqual({ valid: true });
    if (response.status === 201) expect(response.headers.get('location')).toBe(`${operation.path}/${body.id}`);
    if (typeof body.id === 'string') expect(response.headers.get('etag')).toMatch(/^"[!#-~]+"$/);
  });

  it('through the secmon-api client: a list pages with cursors until next_cursor is null', async () => {
    const first = await api.GET('/v1/findings', { params: { query: { limit: 1 } } });
    expect(first.response.status).toBe(200);
    expect(first.data!.data).toHaveLength(1);
    const seen = [...first.data!.data];
    let cursor = first.data!.next_cursor;
    while (cursor !== null) {
      const next = await api.GET('/v1/findings', { params: { query: { limit: 1, cursor } } });
      seen.push(...next.data!.data);
      cursor = next.data!.next_cursor;
    }
    const all = await api.GET('/v1/findings', { params: { query: { limit: 100 } } });
    expect(seen.map((finding) => finding.id)).toEqual(all.data!.data.map((finding) => finding.id));
    const open = await api.GET('/v1/findings', { params: { query: { status: 'open' } } });
    expect(open.data!.data.every((finding) => finding.status === 'open')).toBe(true);
  });
});

describe('requests the service would refuse', () => {
  it('an invalid body gets the documented 400 problem naming every invalid part', async () => {
    const { error, response } = await api.POST('/v1/policies', {
      body: { name: '', severity: 'urgent', colour: 'red' } as never,
      params: { query: { limit: 0 } as never },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(validator.validate('#/components/schemas/Problem', error)).toEqual({ valid: true });
    expect(error!.type).toBe('https://secmon.dev/problems/validation-error');
    expect(error!.instance).toBe('/v1/policies');
    expect(error!.errors!.map((part) => part.pointer).sort()).toEqual(['/body/colour', '/body/name', '/body/severity', '/query/limit']);
    expect(error!.detail).toBe('The request has 4 invalid parts.');
  });

  it('a malformed identifier, an unknown filter value, a missing key, text/plain and broken JSON each get their problem', async () => {
    const invalidId = await fetch(`${BASE}/v1/policies/not-an-id`, { headers: auth });
    expect(invalidId.status).toBe(400);
    expect((await json(invalidId)).errors[0].pointer).toBe('/path/id');
    const filter = await api.GET('/v1/findings', { params: { query: { status: 'closed' as never } } });
    expect(filter.error!.errors![0]!.pointer).toBe('/query/status');
    const anonymous = await fetch(`${BASE}/v1/findings`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // The header is read as the server reads it: the scheme in any case, one or more spaces, the token alone.
    const spelt = async (authorization: string) => (await fetch(`${BASE}/v1/findings`, { headers: { authorization } })).status;
    expect(await Promise.all(['bearer k', 'BEARER k', 'Bearer   k'].map(spelt))).toEqual([200, 200, 200]);
    expect(await Promise.all(['XBearer k', 'Bearer k more', 'k'].map(spelt))).toEqual([401, 401, 401]);
    const text = await fetch(`${BASE}/v1/findings`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(415);
    expect((await json(text)).type).toBe('https://secmon.dev/problems/unsupported-media-type');
    const broken = await fetch(`${BASE}/v1/findings`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"',
    });
    expect((await json(broken)).type).toBe('https://secmon.dev/problems/malformed-json');
    const unknown = await fetch(`${BASE}/v1/devices`, { headers: auth });
    expect(unknown.status).toBe(404);
    const method = await fetch(`${BASE}/v1/policies`, { method: 'PATCH', headers: auth });
    expect(method.status).toBe(405);
  });
});

describe('scenarios', () => {
  const id = 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1';

  it('Prefer works as in the two server mocks: a status, a named example, and a 400 for one not documented', async () => {
    const missing = await fetch(`${BASE}/v1/policies/${id}`, { headers: { ...auth, prefer: 'code=404' } });
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ type: 'https://secmon.dev/problems/not-found', instance: `/v1/policies/${id}` });
    const compliant = await fetch(`${BASE}/v1/policies/${id}`, { headers: { ...auth, prefer: 'example=compliant' } });
    expect((await json(compliant)).compliance_status).toBe('compliant');
    const unknown = await fetch(`${BASE}/v1/policies/${id}`, { headers: { ...auth, prefer: 'code=418' } });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).errors[0]).toMatchObject({ pointer: '/headers/Prefer', message: expect.stringContaining('code=404') });
  });

  it('per test: a 404, then a named example, then the default answer again after resetHandlers', async () => {
    server.use(mock.scenario('getPolicy', { code: 404 }));
    expect((await api.GET('/v1/policies/{id}', { params: { path: { id } } })).response.status).toBe(404);
    server.use(mock.scenario('getPolicy', { example: 'compliant' }));
    const named = await api.GET('/v1/policies/{id}', { params: { path: { id } } });
    expect(named.data!.compliance_status).toBe('compliant');
    server.resetHandlers();
    expect((await api.GET('/v1/policies/{id}', { params: { path: { id } } })).data!.compliance_status).toBe('non_compliant');
  });

  it('a 429 or 503 asks for no wait, so the client retries at once and hands over the problem; a scenario may ask for one', async () => {
    const retrying = createSecmonClient({ baseUrl: BASE, apiKey: 'frontend-test-key' });
    server.use(mock.scenario('listFindings', { code: 429 }));
    const started = performance.now();
    const { error, response } = await retrying.GET('/v1/findings');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error!.type).toBe('https://secmon.dev/problems/rate-limited');
    expect([response.headers.get('retry-after'), response.headers.get('ratelimit')]).toEqual(['0', '"120-in-1min"; r=0; t=0']);
    const unavailable = await fetch(`${BASE}/v1/policies`, { headers: { ...auth, prefer: 'code=503' } });
    expect([unavailable.status, unavailable.headers.get('retry-after')]).toEqual([503, '0']);
    server.use(mock.scenario('listFindings', { code: 429, headers: { 'Retry-After': '30' } }));
    const waiting = await fetch(`${BASE}/v1/findings`, { headers: auth });
    expect([waiting.headers.get('retry-after'), waiting.headers.get('ratelimit')]).toEqual(['30', '"120-in-1min"; r=0; t=30']);
  });

  it('an invalid request gets its own problem even under a scenario', async () => {
    server.use(mock.scenario('getPolicy', { code: 404 }));
    expect((await fetch(`${BASE}/v1/policies/nope`, { headers: auth })).status).toBe(400);
  });

  it('a typed override answers from the validated request', async () => {
    server.use(
      mock.override('createFinding', ({ body }) => ({
        status: 409,
        body: {
          type: 'https://secmon.dev/problems/idempotency-key-reused',
          title: 'Idempotency key reused',
          status: 409,
          detail: body.title,
          instance: '/v1/findings',
        },
      })),
    );
    const { error, response } = await api.POST('/v1/findings', {
      body: { title: 'Disk encryption off', severity: 'high', device_id: 'dev_01jbz1a2b3c4d5e6f7g8h9j0k1' },
    });
    expect(response.status).toBe(409);
    expect(error!.detail).toBe('Disk encryption off');
  });
});
