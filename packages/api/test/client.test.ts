// The typed client, imported by package name as an integrator would: against the reference server
// (started through its factory) for real calls and problems, the Prism mock for examples, and a
// loopback stub for 429s.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockServer } from 'secmon-mock/src/prism';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../server/config.ts';
import { type RunningServer, startServer } from '../../../server/server.ts';
import { staticMock } from '../../../test/support/static-mock.ts';
import { createSecmonClient, isProblem, retryAfterMs, SecmonProblemError, unwrap } from '../src/client.ts';
import type { components } from '../src/types.ts';

const WRITE_KEY = 'toolkit-writer-key';

describe('createSecmonClient against the reference server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(
      testConfig({
        apiKeys: [{ token: WRITE_KEY, scopes: new Set(['read', 'write']) }],
        usingDefaultKeys: false,
      }),
    );
  });
  afterAll(() => server?.close());

  it('creates and reads a policy with typed bodies', async () => {
    const client = createSecmonClient({ baseUrl: server.url, apiKey: WRITE_KEY });
    const body: components['schemas']['PolicyWrite'] = { name: 'Disk encryption enabled', severity: 'high' };
    const created = await client.POST('/v1/policies', { body });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    expect(id).toMatch(/^pol_/);

    const read = await client.GET('/v1/policies/{id}', { params: { path: { id } } });
    expect(read.data).toMatchObject({ id, name: 'Disk encryption enabled', severity: 'high', enabled: true });
    expect(unwrap(read).version).toBe(1);
  });

  it('returns a problem document as the typed error', async () => {
    const client = createSecmonClient({ baseUrl: server.url, apiKey: WRITE_KEY });
    const { data, error, response } = await client.POST('/v1/policies', {
      body: { name: 'Disk encryption enabled', severity: 'urgent' } as never,
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(isProblem(error)).toBe(true);
    expect(error!.type).toBe('https://secmon.dev/problems/validation-error');
    expect(error!.errors?.map((entry) => entry.pointer)).toEqual(['/body/severity']);
  });

  it('sends the API key as a bearer token, so a wrong key is a 401 problem', async () => {
    const client = createSecmonClient({ baseUrl: server.url, apiKey: 'not-a-known-key' });
    const { error, response } = await client.GET('/v1/policies');
    expect(response.status).toBe(401);
    expect(error?.type).toBe('https://secmon.dev/problems/unauthorized');
  });

  it('unwrap throws SecmonProblemError carrying the problem', async () => {
    const client = createSecmonClient({ baseUrl: server.url, apiKey: WRITE_KEY });
    const missing = await client.GET('/v1/findings/{id}', { params: { path: { id: 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1' } } });
    const thrown = (() => {
      try {
        unwrap(missing);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(SecmonProblemError);
    expect((thrown as SecmonProblemError).status).toBe(404);
    expect((thrown as SecmonProblemError).problem.type).toBe('https://secmon.dev/problems/not-found');
  });
});

describe('createSecmonClient against the Prism mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await staticMock();
  });

  it('reads the documented example list, typed', async () => {
    const client = createSecmonClient({ baseUrl: mock.url, apiKey: 'any-key-for-the-mock' });
    const page = unwrap(await client.GET('/v1/policies', { params: { query: { limit: 2 } } }));
    expect(page.data.length).toBeGreaterThan(0);
    for (const policy of page.data) expect(policy.id).toMatch(/^pol_/);
    expect(page).toHaveProperty('next_cursor');
  });
});

describe("the default retry bound covers the reference server's own 429", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(
      testConfig({ apiKeys: [{ token: WRITE_KEY, scopes: new Set(['read', 'write']) }], usingDefaultKeys: false, rateLimitPerMinute: 1 }),
    );
  });
  afterAll(() => server?.close());

  it('waits for the Retry-After of a used-up quota (the server asks for up to 60 s) instead of giving up', async () => {
    const answers: Response[] = [];
    const recording = async (request: Request) => {
      const response = await fetch(request);
      answers.push(response.clone());
      return response;
    };
    const client = createSecmonClient({ baseUrl: server.url, apiKey: WRITE_KEY, fetch: recording });
    expect((await client.GET('/v1/policies')).response.status).toBe(200);

    const abort = new AbortController();
    const call = client.GET('/v1/policies', { signal: abort.signal });
    const outcome = await Promise.race([call.then(() => 'returned'), new Promise((resolve) => setTimeout(resolve, 500, 'waiting'))]);
    const tooMany = answers[1]!;
    expect(tooMany.status).toBe(429);
    const wait = retryAfterMs(tooMany.headers.get('retry-after'))!;
    expect(wait).toBeGreaterThan(30_000); // over the old 30 s bound: that client returned the 429 at once
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(outcome, 'the client is waiting to retry').toBe('waiting');
    abort.abort(new Error('test over'));
    await expect(call).rejects.toThrow('test over');
    expect(answers).toHaveLength(2);

    const impatient = createSecmonClient({ baseUrl: server.url, apiKey: WRITE_KEY, maxRetryDelayMs: 30_000 });
    expect((await impatient.GET('/v1/policies')).response.status).toBe(429);
  });
});

describe('retries of 429 (loopback stub)', () => {
  interface Seen {
    authorization: string | undefined;
    body: string;
    at: number;
  }
  let answers: ((res: ServerResponse) => void)[] = [];
  const seen: Seen[] = [];
  let baseUrl: string;
  const stub = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ authorization: req.headers.authorization, body, at: Date.now() });
    const answer = answers.shift() ?? ((r: ServerResponse) => r.writeHead(500).end());
    answer(res);
  });
  const tooMany = (retryAfter?: string) => (res: ServerResponse) => {
    res.writeHead(429, {
      'content-type': 'application/problem+json',
      ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
    });
    res.end(
      JSON.stringify({
        type: 'https://secmon.dev/problems/rate-limited',
        title: 'Too many requests',
        status: 429,
        detail: 'Slow down.',
        instance: '/v1/policies',
      }),
    );
  };
  const unavailable = (retryAfter: string) => (res: ServerResponse) => {
    res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': retryAfter });
    res.end(
      JSON.stringify({
        type: 'https://secmon.dev/problems/service-unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'The service cannot reach its database right now.',
        instance: '/v1/policies',
      }),
    );
  };
  const created = (res: ServerResponse) => {
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1' }));
  };

  beforeAll(async () => {
    stub.listen(0, '127.0.0.1');
    await once(stub, 'listening');
    baseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => stub.close(resolve)));
  const reset = (...next: ((res: ServerResponse) => void)[]) => {
    answers = next;
    seen.length = 0;
  };

  it('waits Retry-After seconds and resends the same request', async () => {
    reset(tooMany('1'), created);
    const client = createSecmonClient({ baseUrl, apiKey: 'stub-key-123' });
    const result = await client.POST('/v1/policies', { body: { name: 'Retry me', severity: 'low' } });
    expect(result.response.status).toBe(201);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(JSON.parse(seen[1]!.body)).toEqual({ name: 'Retry me', severity: 'low' });
    expect(seen.map((request) => request.authorization)).toEqual(['Bearer stub-key-123', 'Bearer stub-key-123']);
  });

  it('gives up after maxRetries and returns the typed 429 problem', async () => {
    reset(tooMany('0'), tooMany('0'), tooMany('0'), created);
    const client = createSecmonClient({ baseUrl, apiKey: 'stub-key-123', maxRetries: 2 });
    const { error, response } = await client.GET('/v1/policies');
    expect(response.status).toBe(429);
    expect(error?.type).toBe('https://secmon.dev/problems/rate-limited');
    expect(seen).toHaveLength(3);
  });

  it('does not wait longer than maxRetryDelayMs, nor without a Retry-After', async () => {
    reset(tooMany('120'), created);
    const patient = createSecmonClient({ baseUrl, apiKey: 'stub-key-123', maxRetryDelayMs: 5_000 });
    expect((await patient.GET('/v1/policies')).response.status).toBe(429);
    expect(seen).toHaveLength(1);

    reset(tooMany(), created);
    expect((await patient.GET('/v1/policies')).response.status).toBe(429);
    expect(seen).toHaveLength(1);
  });

  it('retries a 503 after its Retry-After: reads, and creates that carry an Idempotency-Key', async () => {
    reset(unavailable('1'), created);
    const client = createSecmonClient({ baseUrl, apiKey: 'stub-key-123' });
    expect((await client.GET('/v1/policies')).response.status).toBe(201);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);

    reset(unavailable('0'), created);
    const result = await client.POST('/v1/policies', {
      body: { name: 'Retry me', severity: 'low' },
      params: { header: { 'Idempotency-Key': 'retry-503-once' } },
    });
    expect(result.response.status).toBe(201);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.body).toBe(seen[0]!.body);
  });

  it('returns a 503 to a create without an Idempotency-Key: it may have been applied', async () => {
    reset(unavailable('0'), created);
    const client = createSecmonClient({ baseUrl, apiKey: 'stub-key-123' });
    const { error, response } = await client.POST('/v1/policies', { body: { name: 'Once', severity: 'low' } });
    expect(response.status).toBe(503);
    expect(error?.type).toBe('https://secmon.dev/problems/service-unavailable');
    expect(seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-02T09:30:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Mon, 02 Nov 2026 09:30:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Mon, 02 Nov 2026 09:29:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-3', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('refuses to be created without an API key', () => {
    expect(() => createSecmonClient({ baseUrl, apiKey: '' })).toThrow(/apiKey/);
  });
});

describe('createSecmonClient and a newer v1 service (the Versioning section)', () => {
  it('returns a response with an unknown field and enum value as it came', async () => {
    const newer = { id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1', severity: 'urgent', cost_centre: 'it-ops' };
    const fetch = async () => new Response(JSON.stringify(newer), { headers: { 'content-type': 'application/json' } });
    const client = createSecmonClient({ baseUrl: 'http://newer.invalid', apiKey: 'any-key-1', fetch });
    const { data } = await client.GET('/v1/policies/{id}', { params: { path: { id: newer.id } } });
    expect(data).toEqual(newer);
  });
});
