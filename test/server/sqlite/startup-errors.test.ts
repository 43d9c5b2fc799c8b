// Start-up failures a reader of the operators' guide can cause: one line on stderr naming the setting and
// what is wrong with its value, exit code 2, no stack trace. Keys are described, never shown.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';
import { startupErrorMessage } from '../../../server/startup-errors.ts';
import { DatabaseUnavailableError, openStore } from '../../../server/store/open.ts';

const scratch = mkdtempSync(join(tmpdir(), 'secmon-startup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs server/main.ts until it exits (killed after 20 s if it starts instead); its code and stderr. */
async function exitOf(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['server/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', SECMON_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  // The development keys are printed before listening; what matters is the last line.
  return { code, stderr: stderr.replace(/^secmon: development API keys[\s\S]*?scopes: read\n/, '') };
}

function expectOneLine(stderr: string, ...parts: (string | RegExp)[]): void {
  expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
  for (const part of parts) expect(stderr).toMatch(part);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('SECMON_API_KEYS messages describe the bad entry without showing it', () => {
  it.each([
    ['abcdef:read+write', 'entry 1 has a key of 6 characters; keys have 8 to 256'],
    ['long-enough-key:read,abc:read', 'entry 2 has a key of 3 characters'],
    [`${'k'.repeat(300)}:read`, 'entry 1 has a key of 300 characters'],
    ['long-enough-key:read,,', 'entry 2 is empty'],
    ['long-enough-key', "entry 1 has no ':<scope>'"],
    ['long-enough-key:', 'entry 1 has no scope (read, write or read+write)'],
    ['long enough key:read', 'entry 1 has a key with a character that is not visible ASCII'],
  ])('%s', (keys, message) => {
    expect(() => loadConfig({ SECMON_API_KEYS: keys })).toThrow(ConfigError);
    expect(() => loadConfig({ SECMON_API_KEYS: keys })).toThrow(message);
    expect(() => loadConfig({ SECMON_API_KEYS: keys })).not.toThrow(/abcdef|long-enough|kkkk/);
  });
});

describe('startupErrorMessage', () => {
  const config = { port: 3000, host: '127.0.0.1', database: 'data/secmon.db' };
  it('leaves errors that are not about a setting to the caller', () => {
    expect(startupErrorMessage(new Error('boom'), config)).toBeUndefined();
    expect(startupErrorMessage(undefined, config)).toBeUndefined();
  });
  it.each([
    [{ code: 'EACCES', syscall: 'listen' }, 'PORT (--port) 3000 needs privileges'],
    [{ code: 'EADDRNOTAVAIL', syscall: 'listen' }, "SECMON_HOST (--host) '127.0.0.1' is not an address of this machine"],
    [{ code: 'ENOTFOUND', syscall: 'getaddrinfo' }, "SECMON_HOST (--host) '127.0.0.1' does not resolve"],
    [{ code: 'EACCES', syscall: 'mkdir' }, "SECMON_DB (--db) 'data/secmon.db' cannot be created: its folder cannot be made (EACCES)"],
  ])('%o', (error, message) => expect(startupErrorMessage(error, config)).toContain(message));

  it('names an unreachable PostgreSQL without its password', async () => {
    const database = 'postgres://secmon:hunter2-secret@127.0.0.1:1/secmon';
    const error = await openStore(database).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    const message = startupErrorMessage(error, { ...config, database });
    expect(message).toBe("SECMON_DB (--db) 'postgres://secmon:***@127.0.0.1:1/secmon' refuses connections: is PostgreSQL running there?");
  });
});

describe('server/main.ts start-up errors: one line, exit 2', () => {
  it('a port already in use', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      const { code, stderr } = await exitOf(['--port', String(port), '--db', ':memory:']);
      expect(code).toBe(2);
      expectOneLine(stderr, `secmon: cannot start: PORT (--port) ${port} is already in use on 127.0.0.1`);
    } finally {
      taken.close();
    }
  });

  it('a host that is not an address of this machine', async () => {
    const { code, stderr } = await exitOf(['--port', '0', '--host', '192.0.2.1', '--db', ':memory:']);
    expect(code).toBe(2);
    expectOneLine(stderr, "SECMON_HOST (--host) '192.0.2.1' is not an address of this machine");
  });

  it('a database path that is a folder', async () => {
    const { code, stderr } = await exitOf(['--port', '0', '--db', scratch]);
    expect(code).toBe(2);
    expectOneLine(stderr, `SECMON_DB (--db) '${scratch}' cannot be opened`);
  });

  it('a database path whose folder is a file', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'x');
    const { code, stderr } = await exitOf(['--port', '0', '--db', join(file, 'secmon.db')]);
    expect(code).toBe(2);
    expectOneLine(stderr, `SECMON_DB (--db) '${join(file, 'secmon.db')}' cannot be created: a part of its folder path is a file`);
  });

  it('a database path that is not a database', async () => {
    const file = join(scratch, 'notes.txt');
    writeFileSync(file, 'these are notes, not an SQLite database\n'.repeat(100));
    const { code, stderr } = await exitOf(['--port', '0', '--db', file]);
    expect(code).toBe(2);
    expectOneLine(stderr, `SECMON_DB (--db) '${file}' is not an SQLite database`);
  });

  it('a bad key list, without the key', async () => {
    const { code, stderr } = await exitOf(['--port', '0', '--db', ':memory:'], { SECMON_API_KEYS: 'abcdef:read+write' });
    expect(code).toBe(2);
    expectOneLine(stderr, 'secmon: invalid configuration: SECMON_API_KEYS: entry 1 has a key of 6 characters');
    expect(stderr).not.toContain('abcdef');
  });
});
