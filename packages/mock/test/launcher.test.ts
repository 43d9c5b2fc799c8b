// startMock's life cycle (ports, readiness, stop, no orphans) and what bare Prism does with this
// document: the limitations the contract shim exists for are pinned here, so a Prism upgrade that
// fixes one shows up as a failing test and the shim's workaround can go.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../../../test/support/process.ts';
import { type MockServer, MockStartError, startMock } from '../src/prism.ts';

const AUTH = { authorization: 'Bearer any-token-at-all' };

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe('bare Prism (shim: false) on this document', () => {
  let prism: MockServer;
  beforeAll(async () => {
    prism = await startMock({ shim: false });
  });
  afterAll(async () => {
    await prism?.stop();
  });

  it('serves on the returned port, which is its own', () => {
    expect(prism.url).toBe(prism.prismUrl);
    expect(prism.url).toBe(`http://127.0.0.1:${prism.port}`);
  });

  it('accepts any bearer token and refuses a missing one with the documented 401', async () => {
    expect((await fetch(`${prism.url}/v1/findings`, { headers: AUTH })).status).toBe(200);
    expect((await fetch(`${prism.url}/v1/findings`)).status).toBe(401);
  });

  it('takes the scheme only as `Bearer` and one space, and any text after it (the shim reads the header as the server does)', async () => {
    const status = async (authorization: string) => (await fetch(`${prism.url}/v1/findings`, { headers: { authorization } })).status;
    expect(await status('bearer any-token')).toBe(401);
    expect(await status('Bearer any-token and more')).toBe(200);
  });

  it('ignores unknown query parameters (the shim answers 400)', async () => {
    expect((await fetch(`${prism.url}/v1/findings?colour=red`, { headers: AUTH })).status).toBe(200);
  });

  it('never answers malformed JSON, while it answers the requests sent after it (the shim answers a problem)', async () => {
    // Prism 5.16, after failing to parse the body, waits for the request's 'end' event, which
    // already fired when it read that body: the answer never comes (stoplightio/prism#2664 was a
    // non-problem 400 before). A later request answered proves Prism got to it.
    const abandoned = new AbortController();
    let settled = false;
    const malformed = fetch(`${prism.url}/v1/policies`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":',
      signal: abandoned.signal,
    }).finally(() => (settled = true));
    const later = await fetch(`${prism.url}/v1/policies`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    await later.body?.cancel();
    expect(later.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(settled).toBe(false);
    abandoned.abort();
    await expect(malformed).rejects.toThrow();
  });

  it('answers a validation failure with the first canned 400 example, whatever was wrong (the shim names the real errors)', async () => {
    const response = await fetch(`${prism.url}/v1/findings?limit=101`, { headers: AUTH });
    const body = (await response.json()) as { errors: { pointer: string }[] };
    expect(response.status).toBe(400);
    expect(body.errors.map((error) => error.pointer)).not.toContain('/query/limit');
    expect(JSON.parse(response.headers.get('sl-violations') ?? '[]')).toHaveLength(1);
  });

  it('returns the whole example page and the same cursor whatever limit and cursor say (the shim pages honestly)', async () => {
    const first = (await (await fetch(`${prism.url}/v1/findings?limit=2`, { headers: AUTH })).json()) as {
      data: unknown[];
      next_cursor: string;
    };
    expect(first.data.length).toBeGreaterThan(2);
    const next = (await (await fetch(`${prism.url}/v1/findings?limit=2&cursor=${first.next_cursor}`, { headers: AUTH })).json()) as {
      next_cursor: string;
    };
    expect(next.next_cursor).toBe(first.next_cursor);
    const filtered = (await (await fetch(`${prism.url}/v1/findings?status=resolved`, { headers: AUTH })).json()) as {
      data: { status: string }[];
    };
    expect(filtered.data.some((finding) => finding.status !== 'resolved')).toBe(true);
  });

  it('allows credentials from every origin, and sends a wildcard with credentials (the shim allows none)', async () => {
    const fromPage = await fetch(`${prism.url}/v1/findings`, { headers: { ...AUTH, origin: 'http://localhost:5173' } });
    await fromPage.body?.cancel();
    expect(fromPage.headers.get('access-control-allow-credentials')).toBe('true');
    const plain = await fetch(`${prism.url}/v1/findings`, { headers: AUTH });
    await plain.body?.cancel();
    expect([plain.headers.get('access-control-allow-origin'), plain.headers.get('access-control-allow-credentials')]).toEqual([
      '*',
      'true',
    ]);
  });

  it('answers a Prefer naming an unknown example with its own NOT_FOUND problem (the shim lists the documented ones)', async () => {
    const response = await fetch(`${prism.url}/v1/policies`, { headers: { ...AUTH, prefer: 'example=nope' } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { type: string }).type).toBe('https://stoplight.io/prism/errors#NOT_FOUND');
  });

  it('answers a 429 with the RateLimit example every answer shares, quota left (the shim says r=0)', async () => {
    const response = await fetch(`${prism.url}/v1/findings`, { headers: { ...AUTH, prefer: 'code=429' } });
    await response.body?.cancel();
    expect(response.status).toBe(429);
    expect(response.headers.get('ratelimit')).toMatch(/; r=[1-9]\d*;/);
  });

  it('uses its own problem types for unknown routes (the shim uses the contract not-found)', async () => {
    const body = (await (await fetch(`${prism.url}/v1/devices`, { headers: AUTH })).json()) as { type: string };
    expect(body.type).toMatch(/^https:\/\/stoplight\.io\/prism\/errors#/);
  });
});

// Each start is a Prism of its own on a port of its own: side by side.
describe.concurrent('life cycle', () => {
  it('stops Prism and the shim: the process exits, the port closes, stop() is idempotent', async () => {
    const mock = await startMock();
    expect(alive(mock.pid)).toBe(true);
    expect((await fetch(`${mock.url}/v1/webhooks`, { headers: AUTH })).status).toBe(200);
    await Promise.all([mock.stop(), mock.stop()]);
    expect(alive(mock.pid)).toBe(false);
    await expect(fetch(`${mock.url}/v1/webhooks`, { headers: AUTH })).rejects.toThrow();
    await expect(fetch(`${mock.prismUrl}/v1/webhooks`, { headers: AUTH })).rejects.toThrow();
  });

  it('listens on a requested port and fails on Prism’s own exit, with its output, when the port is taken', async () => {
    // Accepts connections and never answers, so only Prism's own bind failure can end the wait
    // before the ready time-out, whose message ("did not answer … within") the pattern excludes: the
    // cause tells the two apart, where a stopwatch would also measure how loaded the machine is.
    const sockets = new Set<Socket>();
    const blocker = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startMock({ port, shim: false }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MockStartError);
      expect((error as Error).message).toMatch(/EADDRINUSE|exited before it was ready/);
      expect((error as Error).message).not.toMatch(/did not answer/);
      expect((error as Error).message).toContain('--- prism output ---');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('is not fooled by another server answering on its port: ready means its own Prism said so', async () => {
    // Answers every request at once, as a server left over on a reused port would.
    const impostor = createHttpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"next_cursor":null}'),
    );
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const port = (impostor.address() as { port: number }).port;
    try {
      const error = await startMock({ port, shim: false }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MockStartError);
      expect((error as Error).message).toMatch(/EADDRINUSE|exited before it was ready/);
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it('with the shim, reports a taken port before Prism is even started', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startMock({ port }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MockStartError);
      expect((error as Error).message).toBe(
        `cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('rejects a document Prism cannot load, with its output, and leaves no process behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secmon-mock-'));
    try {
      const document = join(dir, 'broken.yaml');
      writeFileSync(document, 'openapi: 3.1.0\npaths: [this is not an OpenAPI document\n');
      const error = await startMock({ document, shim: false, readyTimeoutMs: 20_000 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MockStartError);
      expect((error as Error).message).toContain('--- prism output ---');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes Prism down with its parent even when the parent is SIGKILLed', async () => {
    const prismModule = fileURLToPath(new URL('../src/prism.ts', import.meta.url));
    const script = `const { startMock } = await import(${JSON.stringify(prismModule)});
      const mock = await startMock({ shim: false });
      process.stdout.write(mock.pid + '\\n');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const pid = await new Promise<number>((resolve, reject) => {
        parent.stdout.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim())));
        parent.once('exit', () => reject(new Error('parent exited before starting the mock')));
      });
      expect(alive(pid)).toBe(true);
      parent.kill('SIGKILL');
      expect(await gone(pid, 10_000)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
