// Cross-cutting HTTP behaviour: authentication and scopes, problems for unknown routes, wrong
// methods, bad bodies and media types, rate limiting, and the operational endpoints.

import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, loadDocument } from '../../packages/api/src/document.ts';
import { waitUntil } from '../../scripts/wait.ts';
import { scopeFor } from '../../server/http/auth.ts';
import { UNLIMITED_QUOTA } from '../../server/http/rate-limit.ts';
import { PROBLEM, querySql, READER_KEY, readProblem, startTestServer, type TestServer, WRITE_ONLY_KEY, WRITER_KEY } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const operations = listOperations(loadDocument());
const concrete = (path: string) =>
  path.replace(
    '{id}',
    `${{ '/v1/policies/{id}': 'pol', '/v1/findings/{id}': 'fnd', '/v1/webhooks/{id}': 'whk' }[path]!}_01jbz0r5s6t7v8w9x0y1z2a3b4`,
  );

describe('authentication', () => {
  it.each(operations.map((op) => [op.method.toUpperCase(), op.path] as const))(
    '%s %s: 401 without a key or with an unknown one',
    async (method, path) => {
      for (const authorization of ['', 'Bearer not-a-known-key', 'Basic dXNlcjpwYXNz']) {
        const response = await t.fetch(concrete(path), { method, headers: { Authorization: authorization } });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="secmon"/);
        expect(await readProblem(response)).toMatchObject({ type: PROBLEM('unauthorized'), status: 401, instance: concrete(path) });
      }
    },
  );

  it('the scope each operation needs matches the document', () => {
    for (const op of operations) {
      const scopes = (op.operation.security ?? []).flatMap((requirement) => requirement.bearerAuth ?? []);
      expect(scopes, `${op.method} ${op.path}`).toEqual([scopeFor(op.method.toUpperCase())]);
    }
  });

  it.each(operations.map((op) => [op.method.toUpperCase(), op.path] as const))(
    '%s %s: 403 for a key without the scope',
    async (method, path) => {
      const key = scopeFor(method) === 'write' ? READER_KEY : WRITE_ONLY_KEY;
      const response = await t.fetch(concrete(path), {
        method,
        headers: { Authorization: `Bearer ${key}` },
        ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
      });
      expect(response.status).toBe(403);
      expect((await readProblem(response)).type).toBe(PROBLEM('forbidden'));
    },
  );
});

describe('problems for everything', () => {
  it('unknown routes: 404 problem, in and outside /v1', async () => {
    for (const path of ['/v1/devices', '/v1/policies/pol_01jbz0r5s6t7v8w9x0y1z2a3b4/extra', '/nothing', '/v2/policies']) {
      const response = await t.fetch(path);
      expect(response.status, path).toBe(404);
      expect(await readProblem(response)).toMatchObject({ type: PROBLEM('not-found'), instance: path });
    }
  });

  it('wrong method: 405 problem with Allow', async () => {
    const response = await t.fetch('/v1/policies', { method: 'PATCH', json: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect((await readProblem(response)).type).toBe(PROBLEM('method-not-allowed'));
    const onItem = await t.fetch('/v1/findings/fnd_01jbz0r5s6t7v8w9x0y1z2a3b4', { method: 'POST', json: {} });
    expect(onItem.status).toBe(405);
  });

  it('malformed JSON: 400 malformed-json', async () => {
    for (const body of ['{', '{"name": "x",}', 'nul', '{"a":1}}']) {
      const response = await t.fetch('/v1/policies', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status, body).toBe(400);
      expect((await readProblem(response)).type).toBe(PROBLEM('malformed-json'));
    }
  });

  it('body over 1 MiB: 413; exactly at the limit is parsed', async () => {
    const huge = JSON.stringify({ name: 'x', severity: 'low', description: 'a'.repeat(1024 * 1024) });
    const response = await t.fetch('/v1/policies', { method: 'POST', body: huge, headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(413);
    expect((await readProblem(response)).type).toBe(PROBLEM('payload-too-large'));
    const padded = JSON.stringify({ name: 'x', severity: 'low' }).padEnd(1024 * 1024, ' ');
    const atLimit = await t.fetch('/v1/policies', { method: 'POST', body: padded, headers: { 'Content-Type': 'application/json' } });
    expect(atLimit.status).toBe(201);
  });

  it('wrong content type: 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await t.fetch('/v1/findings', { method: 'POST', body: '{"title":"t"}', headers: { 'Content-Type': type } });
      expect(response.status, type).toBe(415);
      expect((await readProblem(response)).type).toBe(PROBLEM('unsupported-media-type'));
    }
    const charset = await t.fetch('/v1/policies', {
      method: 'POST',
      body: '{"name":"x","severity":"low"}',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(charset.status).toBe(201);
  });

  it('missing body: 400', async () => {
    const response = await t.fetch('/v1/policies', { method: 'POST' });
    expect(response.status).toBe(400);
    expect((await readProblem(response)).type).toBe(PROBLEM('validation-error'));
  });

  it('one structured log line per request: id, method, path without query, status, duration', async () => {
    await t.fetch('/v1/policies?limit=2', { headers: { 'X-Request-Id': 'log-line-check' } });
    const line = t.logs.map((text) => JSON.parse(text)).find((entry) => entry.req?.id === 'log-line-check');
    expect(line).toMatchObject({
      level: 30,
      req: { method: 'GET', path: '/v1/policies' },
      res: { status: 200 },
      msg: 'GET /v1/policies 200',
    });
    expect(line.responseTime).toBeTypeOf('number');
  });

  it('request ids: echoed when sane, generated otherwise', async () => {
    const echoed = await t.fetch('/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const generated = await t.fetch('/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('response validation', () => {
  it('a response that breaks the contract becomes a logged 500 in development, and passes unchecked when off', async () => {
    const off = await startTestServer({ validateResponses: false });
    try {
      for (const server of [t, off]) {
        // A row the API could never have written: a severity outside the enum.
        await querySql(
          server.server,
          `INSERT INTO policies (id, name, description, severity, enabled, frameworks, rule, version, created_at, updated_at)
           VALUES ('pol_01jbz0r5s6t7v8w9x0y1z2a3b5', 'corrupt', '', 'urgent', true, '[]', NULL, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
        );
      }
      const checked = await t.fetch('/v1/policies/pol_01jbz0r5s6t7v8w9x0y1z2a3b5');
      expect(checked.status).toBe(500);
      expect((await readProblem(checked)).type).toBe(PROBLEM('internal-error'));
      expect(t.logs.some((line) => line.includes('"level":50') && line.includes('severity'))).toBe(true);
      const unchecked = await off.fetch('/v1/policies/pol_01jbz0r5s6t7v8w9x0y1z2a3b5');
      expect(unchecked.status).toBe(200);
    } finally {
      await querySql(t.server, `DELETE FROM policies WHERE id = 'pol_01jbz0r5s6t7v8w9x0y1z2a3b5'`);
      await off.close();
    }
  });
});

describe('rate limiting', () => {
  it('per key: RateLimit and RateLimit-Policy headers in the documented form, then 429 with Retry-After', async () => {
    const limited = await startTestServer({ rateLimitPerMinute: 3 });
    try {
      const first = await limited.fetch('/v1/policies');
      expect(first.headers.get('ratelimit-policy')).toMatch(/^"3-in-1min"; q=3; w=60/);
      expect(first.headers.get('ratelimit')).toMatch(/^"3-in-1min"; r=2; t=\d+/);
      await limited.fetch('/v1/policies');
      const third = await limited.fetch('/v1/policies?limit=0');
      expect(third.status).toBe(400);
      expect(third.headers.get('ratelimit')).toMatch(/r=0;/);
      const refused = await limited.fetch('/v1/policies');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await readProblem(refused)).type).toBe(PROBLEM('rate-limited'));
      // Another key has its own budget.
      const other = await limited.fetch('/v1/policies', { headers: { Authorization: `Bearer ${READER_KEY}` } });
      expect(other.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('SECMON_RATE_LIMIT=0 turns limiting off, and the headers the document requires say so', async () => {
    const response = await t.fetch('/v1/policies');
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"unlimited"; q=${UNLIMITED_QUOTA}; w=60(;|$)`));
    expect(response.headers.get('ratelimit')).toMatch(/^"unlimited"; r=\d+; t=\d+$/);
  });
});

describe('operational endpoints', () => {
  it('/healthz and /readyz need no key', async () => {
    const health = await fetch(`${t.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
  });

  it('/openapi.json and /openapi.yaml serve the bundled document', async () => {
    const json = await fetch(`${t.url}/openapi.json`);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await json.json()) as { openapi: string }).openapi).toBe(loadDocument().openapi);
    const yaml = await fetch(`${t.url}/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(await yaml.text()).toMatch(/^openapi: 3\.1/m);
  });

  it('/docs serves the built page, and a 404 problem telling how to build it when missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secmon-docs-'));
    const page = join(dir, 'docs.html');
    writeFileSync(page, '<!doctype html><title>SecMon API</title>');
    const withDocs = await startTestServer({ docsPath: page });
    const without = await startTestServer({ docsPath: join(dir, 'missing.html') });
    try {
      const docs = await fetch(`${withDocs.url}/docs`);
      expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await docs.text()).toContain('SecMon API');
      const missing = await fetch(`${without.url}/docs`);
      expect(missing.status).toBe(404);
      expect((await readProblem(missing)).detail).toContain('npm run docs');
    } finally {
      await withDocs.close();
      await without.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close() answers /readyz with 503 while it drains, with Connection: close', async () => {
    const server = await startTestServer();
    // Two connections, raw: a POST held by Expect: 100-continue keeps the drain open, and a GET
    // /readyz begun before close() and finished after it is answered during the drain.
    const held = connect(server.server.port, '127.0.0.1');
    const probe = connect(server.server.port, '127.0.0.1');
    let received = '';
    let probed = '';
    held.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    probe.setEncoding('utf8').on('data', (chunk: string) => (probed += chunk));
    try {
      await Promise.all([once(held, 'connect'), once(probe, 'connect')]);
      const body = JSON.stringify({ name: 'drain', severity: 'low' });
      held.write(
        `POST /v1/policies HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${WRITER_KEY}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
      );
      probe.write('GET /readyz HTTP/1.1\r\nHost: test\r\n');
      expect(await waitUntil(() => received.includes('100 Continue')), received).toBe(true);
      const closing = server.close();
      probe.write('\r\n');
      expect(await waitUntil(() => probed.includes('{"status":"unavailable","reason":"shutting down"}')), probed).toBe(true);
      expect(probed).toMatch(/^HTTP\/1\.1 503 [\s\S]*^connection: close\r$/im);
      held.write(body);
      expect(await waitUntil(() => /HTTP\/1\.1 201 /.test(received)), received).toBe(true);
      expect(received).toMatch(/^connection: close\r$/im);
      await closing;
    } finally {
      held.destroy();
      probe.destroy();
      await server.close();
    }
  });

  it('close() drains: a request in flight finishes, then the database closes', async () => {
    const server = await startTestServer();
    // Expect: 100-continue holds the body back until the server has taken the request: close()
    // then starts with the request provably in flight, however slow the machine.
    const inFlight = request(`${server.url}/v1/policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER_KEY}`, 'content-type': 'application/json', expect: '100-continue' },
    });
    const answered = new Promise<IncomingMessage>((resolve, reject) => inFlight.on('response', resolve).on('error', reject));
    inFlight.flushHeaders();
    await once(inFlight, 'continue');
    const closing = server.close();
    inFlight.end(JSON.stringify({ name: 'drain', severity: 'low' }));
    const response = await answered;
    response.resume();
    expect(response.statusCode).toBe(201);
    await closing;
    expect(await server.server.app.store.ping()).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
