// `npm run mock -- --stateful` as a frontend developer starts it: the reference server in memory,
// seeded with the same findings, policies and webhooks the static mock shows, any token accepted,
// writes remembered, and `--reset` or a restart gives the seed back.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadDocument } from '../../lib/document.ts';

const MAIN = fileURLToPath(new URL('../../mock/main.ts', import.meta.url));
const doc = loadDocument();
const exampleIds = (name: string) => ((doc.components!.examples![name] as { value: { data: { id: string }[] } }).value.data.map((item) => item.id));

async function startStateful(): Promise<{ url: string; stderr(): string; stop(): Promise<number | null>; kill(): void }> {
  const child = spawn(process.execPath, [MAIN, '--stateful', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => void (child.exitCode === null && child.kill('SIGKILL')));
  let output = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"server listening"/.exec(output);
      if (listening) resolve(listening[1]!);
    });
    child.on('exit', () => reject(new Error(`the stateful mock exited:\n${output}${stderr}`)));
  });
  return {
    url,
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

const get = async (url: string) => (await (await fetch(url, { headers: { authorization: 'Bearer whatever-the-app-sends' } })).json()) as { data: { id: string }[] };

describe('the stateful mock', () => {
  it('starts seeded with the examples, remembers writes from any token, and --reset or a restart gives the seed back', async () => {
    const first = await startStateful();
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

    const second = await startStateful();
    expect((await get(`${second.url}/v1/policies?limit=100`)).data.map((p) => p.id)).toEqual(exampleIds('PolicyList'));
    expect(await second.stop()).toBe(0);
  }, 60_000);

  it('stops the server when the launcher dies, even by SIGKILL, so the port is free again', async () => {
    const mock = await startStateful();
    mock.kill();
    const deadline = performance.now() + 10_000;
    let refused = false;
    while (!refused && performance.now() < deadline) {
      refused = await fetch(`${mock.url}/healthz`).then(
        async (response) => {
          await response.body?.cancel();
          return false;
        },
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused).toBe(true);
  }, 30_000);

  it('--reset says so when no stateful mock answers on the port', async () => {
    const stopped = await startStateful();
    const { port } = new URL(stopped.url);
    await stopped.stop();
    const reset = await runLauncher('--reset', '--port', port);
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain('only a running stateful mock (--stateful) can be reset');
  }, 30_000);
});
