// One writer per database file: a second server on the same file exits with code 2 and one line
// naming the file and the holder, without touching what the first has in flight; the hold dies
// with the process, so a restart after a crash starts at once.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../../../scripts/receiver.ts';
import { type ServerProcess, spawnServer } from '../../../scripts/server-process.ts';
import { sleep } from '../../../scripts/wait.ts';
import { DatabaseHeldError, holdDatabase } from '../../../server/store/sqlite/writer-lock.ts';
import { DEVICE_ID } from '../helpers.ts';

const MAIN = fileURLToPath(new URL('../../../server/main.ts', import.meta.url));
const KEY = 'single-writer-key-4b8e2a';
const dir = mkdtempSync(join(tmpdir(), 'secmon-writer-'));
const env = (db: string) => ({
  SECMON_DB: db,
  SECMON_API_KEYS: `${KEY}:read+write`,
  SECMON_RATE_LIMIT: '0',
  SECMON_DELIVERY_TIMEOUT_MS: '30000',
});

const servers: ServerProcess[] = [];
let receiver: TestReceiver | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill()));
  await receiver?.close();
  receiver = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs server/main.ts to its exit; resolves with the code and stderr. */
async function runToExit(environment: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...environment },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}

describe('one writer per database file', () => {
  it('a second server on the same file exits 2 with one line naming the file and the holder; the first keeps its delivery', async () => {
    const db = join(dir, 'shared.db');
    receiver = await startReceiver('timeout');
    const first = await spawnServer(env(db));
    servers.push(first);
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const webhook = await fetch(`${first.url}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['finding.created'] }),
    });
    expect(webhook.status).toBe(201);
    const finding = await fetch(`${first.url}/v1/findings`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'In flight', severity: 'low', device_id: DEVICE_ID }),
    });
    expect(finding.status).toBe(201);
    await receiver.waitFor(1);

    const second = await runToExit(env(db));
    expect(second.code).toBe(2);
    const lines = second.stderr
      .trim()
      .split('\n')
      .filter((line) => line.includes(db));
    expect(lines).toEqual([
      `secmon: database ${db} is in use by another server (PID ${first.child.pid}); stop that server or start this one with another --db`,
    ]);
    // The first server's attempt is still in flight (its receiver never answers): nobody re-sent it.
    await sleep(500);
    expect(receiver.receipts).toHaveLength(1);
  }, 60_000);

  it('the hold dies with the process: after SIGKILL a new server starts on the same file', async () => {
    const db = join(dir, 'crashed.db');
    const first = await spawnServer(env(db));
    await first.kill('SIGKILL');
    const second = await spawnServer(env(db));
    servers.push(second);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  }, 60_000);

  it('holds within one process too, and releases for the next holder', () => {
    const db = join(dir, 'nested', 'in-process.db');
    const lock = holdDatabase(db);
    const refusal = (() => {
      try {
        holdDatabase(db).release();
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(DatabaseHeldError);
    expect((refusal as DatabaseHeldError).holderPid).toBe(process.pid);
    lock.release();
    holdDatabase(db).release();
  });
});
