// Runs a written replay on its own, as a team would: `sh` or `node` in a child process (so a target
// in this process keeps answering), with the target and keys in the environment only; and what a
// test file of replays against in-process targets sets up.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { Exchange } from '../src/kit/http.ts';
import type { Reproduction } from '../src/kit/repro.ts';

export interface ReplayRun {
  code: number;
  stdout: string;
}

export function runReplay(
  file: string,
  runner: Reproduction['runner'],
  baseUrl: string,
  keys: { apiKey: string; readKey?: string | undefined },
): Promise<ReplayRun> {
  const env = {
    PATH: process.env.PATH,
    SECMON_BASE_URL: baseUrl,
    SECMON_API_KEY: keys.apiKey,
    ...(keys.readKey ? { SECMON_READ_KEY: keys.readKey } : {}),
    // A delivery that does not come is the fault only some replays look for: waiting long proves nothing more.
    SECMON_EVENT_TIMEOUT: '5000',
  };
  const [command, args] = runner === 'sh' ? ['sh', [file]] : [process.execPath, [file]];
  return new Promise((resolve) =>
    execFile(command, args, { env, encoding: 'utf8', timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
    ),
  );
}

/** A run's POST of JSON to `path` on http://run.example, with the API key by role, and its JSON answer. */
export const posted = (path: string, body: unknown, status: number, json: unknown, headers: Record<string, string> = {}): Exchange => ({
  request: {
    method: 'POST',
    url: `http://run.example${path}`,
    headers: { Authorization: 'Bearer <api-key>', 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  },
  status,
  headers: new Headers(),
  mediaType: 'application/json',
  text: JSON.stringify(json),
  json,
});

/** Starts `server` on a free loopback port; its URL. */
export async function listening(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A folder for a test file's written replays, removed after the file, and the in-process targets
 * its tests start, closed after each test.
 */
export function replayBench<Target extends { server: Server }>(prefix: string): { scratch: string; targets: Target[] } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const targets: Target[] = [];
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  afterEach(() => {
    for (const target of targets.splice(0)) target.server.close();
  });
  return { scratch, targets };
}
