// `npm run bench`: the score of the request path and the delivery engine, side by side in one run
// (a few minutes, progress on stderr, the table on stdout). HTTP (bench/http.ts): the server in
// development and production mode, bare Express, a bare `node:http` server (the floor) and Prism,
// with the server CPU per request from the server process's own accounting; then deliveries per
// second (bench/deliveries.ts) on SQLite and on PostgreSQL with 1 and 3 instances. The other
// benchmarks (bench:http, bench:webhooks, bench:scale, bench:instances) go deeper, one subject each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cluster, startCluster } from '../scripts/postgres/cluster.ts';
import { spawnServer } from '../scripts/server-process.ts';
import { DELIVERY_KEY, type DeliveryRate, deliveryRate } from './deliveries.ts';
import { httpTable, httpTargets, runHttpBench } from './http.ts';

const EVENTS = Math.round(300 * Number(process.env.BENCH_SCALE ?? 1));
const WEBHOOKS = 5;
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

interface Setup {
  name: string;
  engine: 'sqlite' | 'postgres';
  instances: number;
}
const SETUPS: Setup[] = [
  { name: 'SQLite, 1 instance', engine: 'sqlite', instances: 1 },
  { name: 'PostgreSQL, 1 instance', engine: 'postgres', instances: 1 },
  { name: 'PostgreSQL, 3 instances', engine: 'postgres', instances: 3 },
];

async function deliveries(): Promise<{ setup: Setup; rate: DeliveryRate }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'secmon-bench-deliveries-'));
  let cluster: Cluster | undefined;
  const results: { setup: Setup; rate: DeliveryRate }[] = [];
  try {
    log('deliveries: starting a throw-away PostgreSQL cluster');
    cluster = await startCluster();
    for (const [index, setup] of SETUPS.entries()) {
      const database = setup.engine === 'sqlite' ? join(dir, `deliveries-${index}.db`) : await cluster.createDatabase();
      log(`deliveries: ${setup.name} (${EVENTS} events × ${WEBHOOKS} webhooks)…`);
      const env = { SECMON_DB: database, SECMON_API_KEYS: `${DELIVERY_KEY}:read+write`, SECMON_RATE_LIMIT: '0', SECMON_LOG_LEVEL: 'info' };
      const servers = await Promise.all(Array.from({ length: setup.instances }, () => spawnServer(env)));
      try {
        results.push({
          setup,
          rate: await deliveryRate(
            servers.map((server) => server.url),
            EVENTS,
            WEBHOOKS,
          ),
        });
      } finally {
        await Promise.all(servers.map((server) => server.kill('SIGTERM')));
      }
    }
    return results;
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function deliveryTable(results: { setup: Setup; rate: DeliveryRate }[]): string {
  const base = results[0]!.rate.perSecond;
  const lines = ['| deliveries | per second | ÷ SQLite, 1 instance | missing |', '|---|---:|---:|---:|'];
  for (const { setup, rate } of results) {
    const ratio = rate.perSecond / base;
    const target = setup.engine === 'postgres' && setup.instances === 1 ? ` (target ≥ 0.8) ${ratio >= 0.8 ? 'met' : 'MISSED'}` : '';
    lines.push(`| ${setup.name} | ${rate.perSecond.toFixed(0)} | ${ratio.toFixed(2)}${target} | ${rate.missing} |`);
  }
  return lines.join('\n');
}

// BENCH_PARTS=http or =deliveries runs one half (both by default).
const parts = (process.env.BENCH_PARTS ?? 'http,deliveries').split(',');
const started = performance.now();
let report = '';
if (parts.includes('http')) {
  const cells = await runHttpBench();
  report += `\nHTTP (loopback, server in its own process)\n\n${httpTable(cells)}\n\n${httpTargets(cells)}\n`;
}
if (parts.includes('deliveries'))
  report += `\nDeliveries (${EVENTS} events × ${WEBHOOKS} webhooks, burst)\n\n${deliveryTable(await deliveries())}\n`;
process.stdout.write(`${report}\n${Math.round((performance.now() - started) / 1000)} s in all\n`);
