// The PostgreSQL harness itself: databases that do not see each other, a stop that leaves no server
// and no folder, and a watchdog that stops the cluster when the process that started it is killed
// outright (a SIGKILLed vitest worker must not leave a server running).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startCluster } from '../../scripts/postgres/cluster.ts';
import { waitUntil } from '../../scripts/wait.ts';

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('startCluster', () => {
  it('creates separate databases and stop() leaves no server and no folder behind', async () => {
    const cluster = await startCluster();
    try {
      const unique = await cluster.createDatabase();
      const named = await cluster.createDatabase('orders');
      expect(named).toBe(`postgres://secmon@127.0.0.1:${cluster.port}/orders`);
      expect(unique).toMatch(new RegExp(`^postgres://secmon@127\\.0\\.0\\.1:${cluster.port}/secmon_[0-9a-f]{32}$`));

      await query(unique, "CREATE TABLE finding (title text); INSERT INTO finding VALUES ('kept')");
      expect(await query(unique, 'SELECT title FROM finding')).toEqual([{ title: 'kept' }]);
      await expect(query(named, 'SELECT title FROM finding')).rejects.toThrow(/does not exist/);
    } finally {
      await cluster.stop();
    }
    await cluster.stop();
    expect(existsSync(dirname(cluster.dataDir))).toBe(false);
    expect(await refusesConnections(cluster.port)).toBe(true);
  });

  it('is stopped by its watchdog when the process that started it is SIGKILLed', async () => {
    const script = `
      const { startCluster } = await import(${JSON.stringify(new URL('../../scripts/postgres/cluster.ts', import.meta.url).href)});
      const { url, port, dataDir } = await startCluster();
      console.log(JSON.stringify({ url, port, dataDir }));
      setInterval(() => {}, 60_000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await Promise.race([
        once(createInterface({ input: child.stdout }), 'line'),
        once(child, 'exit').then(([code]) => Promise.reject(new Error(`the child exited (${code}) before starting a cluster`))),
      ])) as [string];
      const started = JSON.parse(line) as { url: string; port: number; dataDir: string };
      expect(await query(started.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);

      child.kill('SIGKILL');
      const gone = await waitUntil(async () => (await refusesConnections(started.port)) && !existsSync(dirname(started.dataDir)), 10_000);
      expect(gone).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
