// `npm run mock -- --stateful` as a frontend developer starts it: the reference server in memory,
// seeded with the same findings, policies and webhooks the static mock shows, any token accepted,
// writes remembered, and `--reset` or a restart gives the seed back.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadDocument } from 'secmon-api/src/document';
import { describe, expect, it, type TestContext } from 'vitest';
import { alive } from '../../../test/support/process.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const doc = loadDocument();
const exampleIds = (name: string) =>
  (doc.components!.examples![name] as { value: { data: { id: string }[] } }).value.data.map((item) => item.id);

/** A stateful mock in a process of its own, killed when the test that started it (`test`) finishes. */
async function startStateful(
  test: Pick<TestContext, 'onTestFinished'>,
): Promise<{ url: string; pid: number; stderr(): string; stop(): Promise<number | null>; kill(): void }> {
  const child = spawn(process.execPath, [MAIN, '--stateful', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  test.onTestFinished(() => void (child.exitCode === null && child.kill('SIGKILL')));
  let output = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The launcher's own server says where it listens and its pid (the launcher is its parent).
  const { url, pid } = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /"url":"(http:\/\/[^"]+)","pid":(\d+)[^\n]*"msg":"server listening"/.exec(output);
      if (listening) resolve({ url: listening[1]!, pid: Number(listening[2]) });
    });
    child.on('exit', () => reject(new Error(`the stateful mock exited:\n${output}${stderr}`)));
  });
  return {
    url,
    pid,
    stderr: () => stderr,
    kill: () => child.kill('SIGKILL'),
    stop: async () => {
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

async function runLauncher(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const get = async (url: string) =>
  (await (await fetch(url, { headers: { authorization: 'Bearer whatever-the-app-sends' } })).json()) as { data: { id: string }[] };

// Each test starts mocks of its own on ports of their own: side by side.
describe.concurrent('the stateful mock', () => {
  it('starts seeded with the examples, remembers writes from any token, and --reset or a restart gives the seed back', async (test) => {
    const first = await startStateful(test);
    expect((await get(`${first.url}/v1/findings?limit=100`)).data.map((f) => f.id)).toEqual(exampleIds('FindingList'));
    expect((await get(`${first.url}/v1/policies?limit=100`)).data.map((p) => p.id)).toEqual(exampleIds('PolicyList'));
    expect((await get(`${first.url}/v1/webhooks?limit=100`)).data.map((w) => w.id)).toEqual(exampleIds('WebhookList'));
    const created = await fetch(`${first.url}/v1/policies`, {
      method: 'POST',
      headers: { authorization: 'Bearer another-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Written by the app', severity: 'low' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await get(`${first.url}/v1/policies?limit=100`)).data.map((p) => p.id)).toContain(id);
    const reset = await runLauncher('--reset', '--port', new URL(first.url).port);
    expect(reset).toMatchObject({ code: 0, stdout: expect.stringContaining('back to its seed') });
    expect((await get(`${first.url}/v1/policies?limit=100`)).data.map((p) => p.id)).toEqual(exampleIds('PolicyList'));
    // Any token works, so the server's development key list would only mislead.
    expect(first.stderr()).not.toContain('API keys');
    expect(await first.stop()).toBe(0);

    const second = await startStateful(test);
    expect((await get(`${second.url}/v1/policies?limit=100`)).data.map((p) => p.id)).toEqual(exampleIds('PolicyList'));
    expect(await second.stop()).toBe(0);
  }, 60_000);

  it('refuses to delete a policy an open finding references, and unlinks the closed ones when it goes', async (test) => {
    const mock = await startStateful(test);
    const send = async (method: string, path: string, body?: unknown) => {
      const headers = { authorization: 'Bearer any', 'content-type': 'application/json' };
      const response = await fetch(`${mock.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>) };
    };
    const policy = (await send('POST', '/v1/policies', { name: 'Disk encryption', severity: 'high' })).body!;
    const finding = (
      await send('POST', '/v1/findings', {
        title: 'Disk not encrypted',
        severity: 'high',
        device_id: 'dev_01jbz1a2b3c4d5e6f7g8h9j0k1',
        policy_id: policy.id,
      })
    ).body!;
    expect(await send('DELETE', `/v1/policies/${policy.id}`)).toMatchObject({
      status: 409,
      body: { type: expect.stringContaining('policy-in-use') },
    });
    const resolved = { title: finding.title, severity: 'high', status: 'resolved', policy_id: policy.id, resolution: { reason: 'fixed' } };
    expect((await send('PUT', `/v1/findings/${finding.id}`, resolved)).status).toBe(200);
    expect((await send('DELETE', `/v1/policies/${policy.id}`)).status).toBe(204);
    expect(await send('GET', `/v1/findings/${finding.id}`)).toMatchObject({ status: 200, body: { status: 'resolved', policy_id: null } });
    expect(await mock.stop()).toBe(0);
  });

  it('stops the server when the launcher dies, even by SIGKILL, so the port is free again', async (test) => {
    const mock = await startStateful(test);
    expect(alive(mock.pid)).toBe(true);
    mock.kill();
    // Its own process is gone (an answer on the port could come from another test's server).
    const deadline = performance.now() + 10_000;
    while (alive(mock.pid) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(mock.pid)).toBe(false);
  }, 30_000);

  it('--reset says so when no stateful mock answers on the port', async (test) => {
    // A port this test holds, answering as anything but a stateful mock would: a freed port could
    // be taken by another test's stateful mock, which --reset would then reset.
    const other = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    test.onTestFinished(() => void other.close());
    const reset = await runLauncher('--reset', '--port', String((other.address() as AddressInfo).port));
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain('only a running stateful mock (--stateful) can be reset');
  }, 30_000);
});

describe.concurrent('Prefer in the stateful mock, as the static mock honours it', () => {
  const AUTH = { authorization: 'Bearer any-frontend-token' };
  const finding = exampleIds('FindingList')[0]!;
  const example = (name: string) => (doc.components!.examples![name] as { value: Record<string, unknown> }).value;

  it('answers a documented error status with its documented problem, and refuses what it cannot answer', async (test) => {
    const mock = await startStateful(test);
    test.onTestFinished(() => void mock.stop());
    const call = (path: string, prefer: string, init: RequestInit = {}) =>
      fetch(`${mock.url}${path}`, { ...init, headers: { ...AUTH, prefer, ...(init.headers as object) } });

    const missing = await call(`/v1/findings/${finding}`, 'code=404');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const notFound = (await missing.json()) as { type: string; detail: string; instance: string };
    expect(notFound).toMatchObject({ type: 'https://secmon.dev/problems/not-found', status: 404, instance: `/v1/findings/${finding}` });
    expect(notFound.detail).toContain(finding);
    expect(notFound.detail).not.toMatch(/pol_/);

    const body = JSON.stringify({ title: 'SSH root login enabled', severity: 'high', status: 'open' });
    const conflict = await call(`/v1/findings/${finding}`, 'code=409, example=invalidTransition', {
      method: 'PUT',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ ...example('InvalidTransition'), instance: `/v1/findings/${finding}` });

    const unauthorised = await call('/v1/policies', 'code=401');
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const limited = await call('/v1/policies', 'code=429');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // The policy the key really has, used up until Retry-After.
    expect(limited.headers.get('ratelimit')).toBe(`"10000-in-1min"; r=0; t=${limited.headers.get('retry-after')}`);
    expect(((await (await call('/v1/webhooks', 'code=500')).json()) as { type: string }).type).toBe(
      'https://secmon.dev/problems/internal-error',
    );

    // Nothing was changed by the preferred answers: the finding is still as seeded.
    expect(((await (await fetch(`${mock.url}/v1/findings/${finding}`, { headers: AUTH })).json()) as { id: string }).id).toBe(finding);

    const refused = async (response: Response, message: RegExp) => {
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { pointer: string; message: string }[] };
      expect(problem.errors).toEqual([{ pointer: '/headers/Prefer', message: expect.stringMatching(message) }]);
    };
    await refused(await call('/v1/policies', 'code=200'), /answers from its state/);
    await refused(await call('/v1/policies', 'example=lastPage'), /answers from its state/);
    await refused(await call('/v1/policies', 'code=418'), /names no documented answer \(code=418\); documented: code=200/);
    await refused(await call('/v1/policies', 'code=400, example=nope'), /names no example nope of 400/);

    // An invalid request gets its own validation problem, whatever Prefer asks for.
    const invalid = await call('/v1/policies', 'code=500', {
      method: 'POST',
      body: JSON.stringify({ name: 'x', severity: 'urgent' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { errors: { pointer: string }[] }).errors.map((error) => error.pointer)).toEqual(['/body/severity']);

    const preflight = await fetch(`${mock.url}/v1/policies`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://app.example.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,prefer',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toContain('prefer');
  });
});
