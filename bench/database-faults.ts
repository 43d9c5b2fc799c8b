// Database faults under a steady load of 20 creates per second, measured once by hand (not part of
// npm test): six PostgreSQL restarts 5 s apart and a 10 s PostgreSQL stall (SIGSTOP), each with two
// instances on one database and the default time-outs, and, as root, a real full disk under a
// SQLite server (a 16 MiB tmpfs filled up, then freed). Prints one table row per fault.
//
//   node bench/database-faults.ts [restarts|stall|disk ...]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type Answer, FaultLoad, percentile } from '../scripts/fault-load.ts';
import { type Cluster, startCluster } from '../scripts/postgres/cluster.ts';
import { stallCluster } from '../scripts/postgres/stall.ts';
import { waitUntil } from '../scripts/wait.ts';
import { READINESS_TIMEOUT_MS } from '../server/http/database-health.ts';
import { DEFAULT_ACQUIRE_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from '../server/store/postgres/store.ts';

const DEADLINE_MS = DEFAULT_ACQUIRE_TIMEOUT_MS + DEFAULT_STATEMENT_TIMEOUT_MS + 250;
const RATE = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const progress = (text: string) => process.stderr.write(`database-faults: ${text}\n`);

interface Row {
  fault: string;
  creates: number;
  ok: number;
  unavailable: string;
  other: number;
  retryAfter: string;
  slowest: string;
  p99: string;
  readyz: string;
  alive: string;
  acknowledged: string;
  causes: string;
}

function row(fault: string, load: FaultLoad, acknowledged: Awaited<ReturnType<FaultLoad['checkAcknowledged']>>): Row {
  const { creates, readiness } = load;
  const byType = new Map<string, number>();
  for (const answer of creates.filter((answer) => answer.status === 503))
    byType.set(
      answer.problemType!.replace('https://secmon.dev/problems/', ''),
      (byType.get(answer.problemType!.replace('https://secmon.dev/problems/', '')) ?? 0) + 1,
    );
  const failed = creates.filter((answer) => answer.status !== 201);
  const ms = (answers: Answer[]) => answers.map((answer) => answer.ms);
  return {
    fault,
    creates: creates.length,
    ok: creates.filter((answer) => answer.status === 201).length,
    unavailable: [...byType].map(([type, count]) => `${count} ${type}`).join(', ') || '0',
    other: failed.filter((answer) => answer.status !== 503).length,
    retryAfter: `${failed.filter((answer) => answer.retryAfter).length}/${failed.length}`,
    slowest: `${Math.round(Math.max(...ms(creates)))} ms`,
    p99: `${Math.round(percentile(ms(creates), 99))} ms`,
    readyz: `max ${Math.round(Math.max(...ms(readiness)))} ms, ${readiness.filter((answer) => answer.status === 503).length} × 503`,
    alive: `${load.alive().filter(Boolean).length}/${load.servers.length}`,
    acknowledged: `${acknowledged.acknowledged} ack, ${acknowledged.missingRows.length} missing, ${acknowledged.undelivered.length} undelivered`,
    causes: [...new Set(load.causes())].join('; '),
  };
}

/** Two instances on a database of a cluster of its own, under load from 2 s before `fault` until 3 s after it. */
async function onPostgres(name: string, fault: (cluster: Cluster, load: FaultLoad) => Promise<void>): Promise<Row> {
  const cluster = await startCluster();
  const load = await FaultLoad.start({ database: await cluster.createDatabase(), instances: 2, createsPerSecond: RATE });
  try {
    load.startLoad();
    await sleep(2000);
    await fault(cluster, load);
    await sleep(3000);
    await load.stopLoad();
    return row(name, load, await load.checkAcknowledged());
  } finally {
    await load.close();
    await cluster.stop();
  }
}

const restarts = () =>
  onPostgres('6 PostgreSQL restarts, 5 s apart', async (cluster, load) => {
    for (let index = 1; index <= 6; index++) {
      if (index > 1) await sleep(5000);
      await cluster.restart();
      progress(`restart ${index}/6 done; instances running: ${load.alive().filter(Boolean).length}/2`);
    }
  });

const stall = () =>
  onPostgres('PostgreSQL stalled 10 s', async (cluster) => {
    const resume = stallCluster(cluster.dataDir);
    progress('PostgreSQL stopped for 10 s');
    await sleep(10_000);
    resume();
    progress('PostgreSQL resumed');
  });

/** A real full file system: root only (it mounts a tmpfs). */
async function disk(): Promise<Row | undefined> {
  if (process.getuid?.() !== 0) {
    progress('the full-disk scenario mounts a tmpfs: run as root (npm test covers a full SQLite database with max_page_count)');
    return undefined;
  }
  const mountPoint = mkdtempSync(join(tmpdir(), 'secmon-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint]);
  const database = join(mountPoint, 'secmon.db');
  let load: FaultLoad | undefined;
  try {
    load = await FaultLoad.start({ database, instances: 1, createsPerSecond: RATE });
    load.startLoad();
    await sleep(1000);
    const { bavail, bsize } = statfsSync(mountPoint);
    writeFileSync(join(mountPoint, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 256 * 1024)));
    progress('file system filled');
    await waitUntil(() => load!.creates.filter((answer) => answer.status === 503).length >= 40, 30_000);
    rmSync(join(mountPoint, 'filler'));
    progress('space freed');
    const url = load.servers[0]!.url;
    await waitUntil(async () => (await fetch(`${url}/readyz`)).status === 200, 10_000);
    await sleep(3000);
    await load.stopLoad();
    const result = row('SQLite on a full 16 MiB file system', load, await load.checkAcknowledged());
    await load.close();
    const check = new DatabaseSync(database, { readOnly: true });
    progress(`integrity check after the run: ${String(check.prepare('PRAGMA integrity_check').get()?.integrity_check)}`);
    check.close();
    return result;
  } finally {
    await load?.close();
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
}

const SCENARIOS = { restarts, stall, disk } as const;
const asked = process.argv.slice(2);
const names = (asked.length > 0 ? asked : Object.keys(SCENARIOS)) as (keyof typeof SCENARIOS)[];
const rows: Row[] = [];
for (const name of names) {
  if (!(name in SCENARIOS)) throw new Error(`unknown scenario ${name}: use ${Object.keys(SCENARIOS).join(', ')}`);
  progress(`${name}...`);
  const result = await SCENARIOS[name]();
  if (result) rows.push(result);
}
console.log(
  `\n${RATE} creates/s; PostgreSQL deadline per request ${DEADLINE_MS} ms (acquire ${DEFAULT_ACQUIRE_TIMEOUT_MS} + statement ${DEFAULT_STATEMENT_TIMEOUT_MS} + 250), /readyz bound ${READINESS_TIMEOUT_MS} ms\n`,
);
console.table(rows);
