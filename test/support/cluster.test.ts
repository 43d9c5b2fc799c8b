// The throw-away cluster the postgres suites, the benchmark and `npm run db:postgres` start:
// it serves on loopback, stops cleanly, and stops by itself when its starter is killed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startCluster } from '../../scripts/postgres/cluster.ts';
import { waitUntil } from '../webhooks/wait.ts';

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

const CLUSTER = fileURLToPath(new URL('../../scripts/postgres/cluster.ts', import.meta.url));

describe('throw-away PostgreSQL cluster', () => {
  it('serves separate databases on loopback; stop() shuts it down and removes its folder', async () => {
    const cluster = await startCluster();
    try {
      const [a, b] = [await cluster.createDatabase(), await cluster.createDatabase()];
      expect(new URL(a).hostname).toBe('127.0.0.1');
      const client = new pg.Client(a);
      await client.connect();
      await client.query('CREATE TABLE t (n int); INSERT INTO t VALUES (7)');
      expect((await client.query('SELECT n FROM t')).rows).toEqual([{ n: 7 }]);
      await client.end();
      const other = new pg.Client(b);
      await other.connect();
      await expect(other.query('SELECT n FROM t')).rejects.toThrow(/does not exist/);
      await other.end();
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dataDir)).toBe(false);
    expect(await refuses(cluster.port)).toBe(true);
  });

  it('stops by itself when the process that started it is killed with SIGKILL', async () => {
    const script = `import { startCluster } from ${JSON.stringify(CLUSTER)}; const c = await startCluster(); console.log(JSON.stringify({ port: c.port, dataDir: c.dataDir })); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = await new Promise<{ port: number; dataDir: string }>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))));
    expect(await refuses(started.port)).toBe(false);
    child.kill('SIGKILL');
    expect(await waitUntil(async () => (await refuses(started.port)) && !existsSync(started.dataDir), 15_000)).toBe(true);
  });
});
