// Several instances on PostgreSQL beside one on SQLite (`npm run bench`): request throughput
// (autocannon, the load split evenly over the instances, as a round-robin balancer would) with
// 1 and 3 instances, with the rate limit counted in the shared database or off, and webhook
// deliveries per second with 1 and 3 dispatchers. Every server is a child process (server/main.ts);
// PostgreSQL is a throw-away cluster on loopback, stopped at the end. One run, side by side.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type Cluster, startCluster } from '../scripts/postgres/cluster.ts';
import { type ServerProcess, spawnServer } from '../scripts/server-process.ts';
import { deliveryRate, DELIVERY_KEY as KEY, post } from './deliveries.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 12;
const DEVICE = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const CREATE_BODY = JSON.stringify({ title: 'SSH root login enabled', severity: 'high', device_id: DEVICE });
const EVENTS = Math.round(400 * Number(process.env.BENCH_SCALE ?? 1));
const WEBHOOKS = 5;

const log = (message: string) => process.stderr.write(`bench instances: ${message}\n`);

interface Setup {
  name: string;
  instances: number;
  engine: 'sqlite' | 'postgres';
  /** Requests per minute per key; counted in PostgreSQL when it is the store. 0 = off. */
  rateLimit: number;
}

const SETUPS: Setup[] = [
  { name: 'SQLite, 1 instance', instances: 1, engine: 'sqlite', rateLimit: 0 },
  { name: 'PostgreSQL, 1 instance', instances: 1, engine: 'postgres', rateLimit: 0 },
  { name: 'PostgreSQL, 3 instances', instances: 3, engine: 'postgres', rateLimit: 0 },
  { name: 'PostgreSQL, 1 instance, shared rate limit', instances: 1, engine: 'postgres', rateLimit: 1_000_000 },
  { name: 'PostgreSQL, 3 instances, shared rate limit', instances: 3, engine: 'postgres', rateLimit: 1_000_000 },
];

interface Row {
  setup: string;
  measure: string;
  perSecond: number;
  p99: number | null;
  errors: number;
}

async function startSetup(setup: Setup, database: string): Promise<ServerProcess[]> {
  const env = {
    SECMON_DB: database,
    SECMON_API_KEYS: `${KEY}:read+write`,
    SECMON_RATE_LIMIT: String(setup.rateLimit),
    // Request logs on, as in real use (spawnServer reads the start-up line from them).
    SECMON_LOG_LEVEL: 'info',
    SECMON_RETRY_SCALE: '0.001',
  };
  return Promise.all(Array.from({ length: setup.instances }, () => spawnServer(env)));
}

/** autocannon on every instance at once, the connections split between them; req/s summed. */
async function requests(
  setup: Setup,
  servers: ServerProcess[],
  measure: string,
  request: { method: 'GET' | 'POST'; path: string; body?: string },
  expected: number,
): Promise<Row> {
  const connections = Math.max(1, Math.round(CONNECTIONS / servers.length));
  const run = (duration: number) =>
    Promise.all(
      servers.map((server) =>
        autocannon({ url: server.url + request.path, method: request.method, body: request.body, headers: HEADERS, connections, duration }),
      ),
    );
  await run(1);
  const results = await run(DURATION_S);
  const answered = results.reduce((sum, result) => sum + (result.statusCodeStats?.[String(expected) as `${number}`]?.count ?? 0), 0);
  const total = results.reduce((sum, result) => sum + result.requests.total + result.errors + result.timeouts, 0);
  return {
    setup: setup.name,
    measure,
    perSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: total - answered,
  };
}

async function deliveries(setup: Setup, servers: ServerProcess[]): Promise<Row> {
  const rate = await deliveryRate(
    servers.map((server) => server.url),
    EVENTS,
    WEBHOOKS,
  );
  return {
    setup: setup.name,
    measure: `deliveries (${EVENTS} events × ${WEBHOOKS} webhooks)`,
    perSecond: rate.perSecond,
    p99: null,
    errors: rate.missing,
  };
}

function table(rows: Row[]): string {
  const measures = [...new Set(rows.map((row) => row.measure))];
  const lines = ['| measure | setup | per second | p99 ms | ÷ SQLite, 1 instance | errors |', '|---|---|---:|---:|---:|---:|'];
  for (const measure of measures) {
    const base = rows.find((row) => row.measure === measure && row.setup === SETUPS[0]!.name)?.perSecond ?? NaN;
    for (const row of rows.filter((candidate) => candidate.measure === measure)) {
      lines.push(
        `| ${measure} | ${row.setup} | ${row.perSecond.toFixed(0)} | ${row.p99 ?? '–'} | ${(row.perSecond / base).toFixed(2)} | ${row.errors} |`,
      );
    }
  }
  return lines.join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'secmon-bench-instances-'));
let cluster: Cluster | undefined;
const rows: Row[] = [];
try {
  log('starting a throw-away PostgreSQL cluster');
  cluster = await startCluster();
  for (const [index, setup] of SETUPS.entries()) {
    // Every setup starts on an empty database of its own.
    const database = setup.engine === 'sqlite' ? join(dir, `bench-${index}.db`) : await cluster.createDatabase();
    log(`${setup.name}: starting`);
    const servers = await startSetup(setup, database);
    try {
      for (let seed = 0; seed < 40; seed++) await post(servers[0]!.url, '/v1/findings', JSON.parse(CREATE_BODY));
      const listed = (await (await fetch(`${servers[0]!.url}/v1/findings?limit=1`, { headers: HEADERS })).json()) as {
        data: { id: string }[];
      };
      log(`${setup.name}: requests`);
      rows.push(await requests(setup, servers, 'GET /v1/findings (a page of 20)', { method: 'GET', path: '/v1/findings' }, 200));
      rows.push(
        await requests(setup, servers, 'GET /v1/findings/{id}', { method: 'GET', path: `/v1/findings/${listed.data[0]!.id}` }, 200),
      );
      rows.push(await requests(setup, servers, 'POST /v1/findings', { method: 'POST', path: '/v1/findings', body: CREATE_BODY }, 201));
      if (setup.rateLimit === 0) {
        log(`${setup.name}: deliveries`);
        rows.push(await deliveries(setup, servers));
      }
    } finally {
      await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    }
  }
  process.stdout.write(
    `\nSeveral instances (loopback, ${DURATION_S} s per cell, ${CONNECTIONS} connections split over the instances, one 2-core machine)\n\n${table(rows)}\n`,
  );
} finally {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
