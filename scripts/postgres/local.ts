#!/usr/bin/env node
// `npm run db:postgres` — a local PostgreSQL for developers in one command: a persistent cluster in
// ./data/postgres (--data) on 127.0.0.1:5433 (--port; 5433 leaves a system server's 5432 alone)
// with a database `secmon`. It stays in the foreground; Ctrl-C (or SIGTERM) stops the cluster and
// keeps the data for the next run.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Cluster, databaseUrl, startCluster } from './cluster.ts';

const DATABASE = 'secmon';
const DUPLICATE_DATABASE = '42P04';
const root = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => process.stdout.write(`db:postgres: ${line}\n`);

function options(): { port: number; dataDir: string } {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { port: { type: 'string', default: '5433' }, data: { type: 'string' } },
    strict: true,
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) throw new Error(`--port must be 1-65535, got "${values.port}"`);
  return { port, dataDir: values.data === undefined ? resolve(root, 'data/postgres') : resolve(values.data) };
}

let cluster: Cluster;
let url: string;
try {
  const { port, dataDir } = options();
  say(`starting PostgreSQL in ${dataDir} on 127.0.0.1:${port}`);
  cluster = await startCluster({ dataDir, port });
  url = await cluster.createDatabase(DATABASE).catch((error: unknown) => {
    if ((error as { code?: string }).code === DUPLICATE_DATABASE) return databaseUrl(cluster.url, DATABASE);
    throw error;
  });
} catch (error) {
  process.stderr.write(`db:postgres: ${(error as Error).message}\n`);
  process.exit(1);
}

say(`ready; database "${DATABASE}" (superuser "secmon", no password, loopback only)`);
process.stdout.write(`SECMON_DB=${url}\n`);
say(`start instances with: SECMON_DB=${url} PORT=3001 npm start   (another PORT for each)`);
say('Ctrl-C stops the cluster; the data stays for the next run');

// Signal handlers alone do not keep Node running.
const keepAlive = setInterval(() => {}, 2 ** 30);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    clearInterval(keepAlive);
    say('stopping');
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`db:postgres: stop failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  });
}
