// `npm run db:postgres`: a local PostgreSQL for running several reference-server instances, kept
// in ./data/postgres between runs, on loopback port 5433 (flags: --port, --data). It prints the
// SECMON_DB to give each instance and runs until Ctrl-C, which stops the cluster.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDatabase, startCluster } from './cluster.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '5433' }, data: { type: 'string', default: './data/postgres' } } });
const cluster = await startCluster({ dataDir: resolve(values.data), port: Number(values.port) });
const admin = new pg.Client(cluster.url);
await admin.connect();
const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = 'secmon'")).rowCount === 1;
await admin.end();
const database = exists ? cluster.url.replace(/\/postgres$/, '/secmon') : await createDatabase(cluster.url, 'secmon');

process.stdout.write(
  `PostgreSQL ${exists ? 'resumed' : 'created'} in ${values.data}, listening on 127.0.0.1:${cluster.port}\n\n` +
    `SECMON_DB=${database}\n\n` +
    `Start instances against it, each on its own port:\n` +
    `  SECMON_DB=${database} PORT=3001 npm start\n` +
    `  SECMON_DB=${database} PORT=3002 npm start\n\n` +
    `Ctrl-C stops PostgreSQL (the data stays in ${values.data}).\n`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`db:postgres: stopping failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  });
}
// Nothing else keeps the process, and so the cluster, alive until a signal.
setInterval(() => {}, 1 << 30);
