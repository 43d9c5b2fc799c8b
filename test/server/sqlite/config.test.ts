// The typed configuration, and the process entry point: bad config exits 2 with a clear
// message; a good one starts, prints the development keys once, and shuts down on SIGTERM.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DEV_KEYS, loadConfig } from '../../../server/config.ts';

describe('loadConfig', () => {
  it('documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      database: './data/secmon.db',
      mode: 'development',
      rateLimitPerMinute: 10_000,
      usingDefaultKeys: true,
      validateResponses: true,
    });
    expect(config.apiKeys.map((key) => [key.token, [...key.scopes]])).toEqual([
      ['dev-admin', ['read', 'write']],
      ['dev-reader', ['read']],
    ]);
    expect(DEFAULT_DEV_KEYS).toBe('dev-admin:read+write,dev-reader:read');
    expect(config.delivery).toEqual({ retryScale: 1, timeoutMs: 10_000, concurrency: 16, perWebhookConcurrency: 8 });
    expect(config.databaseTimeouts).toEqual({ statementMs: 3000, acquireMs: 2000 });
  });

  it('environment, then flags', () => {
    const env = {
      PORT: '4000',
      SECMON_DB: ':memory:',
      SECMON_API_KEYS: 'abcdefgh:read',
      SECMON_MODE: 'production',
      SECMON_RATE_LIMIT: '0',
      SECMON_RETRY_SCALE: '0.001',
    };
    const config = loadConfig(env, ['--port', '5000', '--rate-limit', '10']);
    expect(config).toMatchObject({
      port: 5000,
      database: ':memory:',
      mode: 'production',
      rateLimitPerMinute: 10,
      validateResponses: false,
      usingDefaultKeys: false,
    });
    expect(config.delivery.retryScale).toBe(0.001);
    expect(loadConfig({ SECMON_VALIDATE_RESPONSES: 'false' }).validateResponses).toBe(false);
    expect(loadConfig({ SECMON_DB: 'postgres://secmon@127.0.0.1:5433/secmon' }).database).toBe('postgres://secmon@127.0.0.1:5433/secmon');
    expect(loadConfig({ SECMON_DELIVERY_TIMEOUT_MS: '2000', SECMON_DELIVERY_LEASE_MS: '4000' }).delivery.leaseMs).toBe(4000);
    expect(loadConfig({ SECMON_DB_STATEMENT_TIMEOUT_MS: '1500', SECMON_DB_ACQUIRE_TIMEOUT_MS: '500' }).databaseTimeouts).toEqual({
      statementMs: 1500,
      acquireMs: 500,
    });
  });

  it.each([
    [{ PORT: 'http' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ SECMON_MODE: 'staging' }, /SECMON_MODE/],
    [{ SECMON_MODE: 'production' }, /SECMON_API_KEYS is required/],
    [{ SECMON_API_KEYS: 'short:read' }, /SECMON_API_KEYS/],
    [{ SECMON_API_KEYS: 'long-enough-key:admin' }, /unknown scope 'admin'/],
    [{ SECMON_API_KEYS: 'long-enough-key:read,long-enough-key:write' }, /twice/],
    [{ SECMON_RATE_LIMIT: '-1' }, /SECMON_RATE_LIMIT/],
    [{ SECMON_RETRY_SCALE: 'fast' }, /SECMON_RETRY_SCALE/],
    [{ SECMON_DELIVERY_LEASE_MS: '10000' }, /SECMON_DELIVERY_LEASE_MS must be longer than SECMON_DELIVERY_TIMEOUT_MS/],
    [{ SECMON_DB_STATEMENT_TIMEOUT_MS: '0' }, /SECMON_DB_STATEMENT_TIMEOUT_MS/],
    [{ SECMON_DB_ACQUIRE_TIMEOUT_MS: '2s' }, /SECMON_DB_ACQUIRE_TIMEOUT_MS/],
    [{ SECMON_LOG_LEVEL: 'loud' }, /SECMON_LOG_LEVEL/],
    [{ SECMON_VALIDATE_RESPONSES: 'yes' }, /SECMON_VALIDATE_RESPONSES/],
  ])('%o is refused', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a key in its messages', () => {
    expect(() => loadConfig({ SECMON_API_KEYS: 'super-secret-key-value:sudo' })).not.toThrow(/super-secret/);
    expect(() => loadConfig({ SECMON_API_KEYS: 'super,secret' })).not.toThrow(/super/);
  });

  it('unknown flags are refused', () => {
    expect(() => loadConfig({}, ['--prot', '1'])).toThrow(ConfigError);
  });
});

function run(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['server/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A server that should have exited but listens instead is killed before the test time-out.
    timeout: 25_000,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return { child, out: () => stdout, err: () => stderr };
}

describe('server/main.ts', () => {
  it('bad configuration: exit code 2 and a message naming the setting', async () => {
    const { child, err } = run(['--port', 'eighty'], {});
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(err()).toContain('PORT (--port) must be an integer');
  });

  it('starts, prints the development keys once, serves, and exits 0 on SIGTERM after closing the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secmon-main-'));
    const { child, out, err } = run(['--port', '0'], { SECMON_DB: join(dir, 'db.sqlite') });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line: ${out()} ${err()}`)), 20_000);
        child.stdout.on('data', () => {
          const match = /"url":"(http:[^"]+)"/.exec(out());
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      expect(err().match(/dev-admin/g)).toHaveLength(1);
      expect(out()).not.toContain('dev-admin');
      const response = await fetch(`${url}/v1/policies`, { headers: { Authorization: 'Bearer dev-admin' } });
      expect(response.status).toBe(200);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(out()).toContain('server closed');
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns when API keys come as a flag (npm echoes the command line), without printing them', async () => {
    const { child, out, err } = run(['--port', '0', '--db', ':memory:', '--api-keys', 'flag-key-0123456789:read'], {});
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line: ${out()} ${err()}`)), 20_000);
        child.stdout.on('data', () => {
          if (out().includes('"server listening"')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(err()).toBe(
        'secmon: warning: --api-keys puts the keys on the command line, where ps, the shell history and npm (which echoes the command) show them; set SECMON_API_KEYS in the environment instead\n',
      );
      expect(out()).not.toContain('flag-key-0123456789');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
