// HTTP benchmark (part of `npm run bench`, or alone: `node bench/http.ts`): autocannon against,
// side by side in one run on loopback, the reference server in development mode (responses
// validated) and in production mode, a bare `node:http` server returning the same JSON (the floor),
// bare Express with its JSON parser (what Express itself costs), and the Prism mock of the same
// document; list, read and create, and on the reference server a create with four invalid fields
// (the cost of reporting every error), and the previous release's server in production mode beside
// today's (bench/previous-release.ts: its own tree and dependencies). Every target runs in its own
// child process so the load generator does not share its event loop; the server CPU per request is
// the child's own accounting (/proc/<pid>/stat), which other load on the machine disturbs less than
// req/s.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startMock } from '../packages/mock/src/prism.ts';
import { root } from '../scripts/pipeline.ts';
import { freePort } from './free-port.ts';
import { PREVIOUS_RELEASE, previousReleaseTree } from './previous-release.ts';
import { cpuMs } from './proc.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 4);
/** Turns the server and the previous release take within a cell's duration. */
const ROUNDS = 4;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const KEY = 'bench-key-0123456789';
const DEVICE = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2';
const CREATE_BODY = JSON.stringify({
  title: 'SSH root login enabled',
  severity: 'high',
  device_id: DEVICE,
  description: 'Benchmark finding',
});
// Wrong in four places at once: empty title, unknown severity, malformed device id, unknown field.
const INVALID_BODY = JSON.stringify({ title: '', severity: 'urgent', device_id: 'nope', colour: 'red' });
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

type Op = 'list' | 'read' | 'create' | 'invalid';
const OPS: Op[] = ['list', 'read', 'create', 'invalid'];
interface Target {
  name: string;
  /** False for the floor and Prism, which do not answer invalid requests the contract's way. */
  validates: boolean;
  url: string;
  readId: string;
  /** The process serving the requests, for its CPU time. */
  pid: number;
  stop(): Promise<void>;
}
export interface Cell {
  target: string;
  op: Op;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Server CPU time per request, which other load on the machine disturbs less than req/s. */
  cpuUs: number;
}

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: child exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not become ready`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function referenceServer(name: string, mode: 'development' | 'production', dir: string, tree = root): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: tree,
    env: {
      ...process.env,
      PORT: String(port),
      SECMON_MODE: mode,
      SECMON_DB: join(dir, `${port}.db`),
      SECMON_API_KEYS: `${KEY}:read+write`,
      SECMON_RATE_LIMIT: '0',
    },
    // Request logs stay on (info) as in real use; they go to /dev/null.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/readyz`, child);
  // A realistic first page: enough findings that list returns a full page of 20.
  let readId = '';
  for (let index = 0; index < 40; index++) {
    const response = await fetch(`${url}/v1/findings`, { method: 'POST', headers: HEADERS, body: CREATE_BODY });
    readId = ((await response.json()) as { id: string }).id;
  }
  return { name, url, readId, validates: true, pid: child.pid!, stop: () => stopChild(child) };
}

async function bareServer(
  name: string,
  flags: string[],
  bodies: { list: unknown; read: unknown; created: unknown },
  readId: string,
): Promise<Target> {
  const child = spawn(process.execPath, ['bench/bare-server.ts', ...flags], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(JSON.stringify(bodies));
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const url = `http://127.0.0.1:${Number(chunk.toString().trim())}`;
  await waitFor(`${url}/v1/findings`, child);
  return { name, url, readId, validates: false, pid: child.pid!, stop: () => stopChild(child) };
}

async function prism(): Promise<Target> {
  // Prism alone: the contract shim of `npm run mock` would add a proxy hop inside this process,
  // which also runs the load generator.
  const mock = await startMock({ shim: false });
  return { name: PRISM, url: mock.url, readId: 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1', validates: false, pid: mock.pid, stop: () => mock.stop() };
}

function requestOf(target: Target, op: Op) {
  const request =
    op === 'list'
      ? { method: 'GET' as const, path: '/v1/findings' }
      : op === 'read'
        ? { method: 'GET' as const, path: `/v1/findings/${target.readId}` }
        : { method: 'POST' as const, path: '/v1/findings', body: op === 'create' ? CREATE_BODY : INVALID_BODY };
  const { path, ...rest } = request;
  return { url: target.url + path, ...rest, headers: HEADERS, connections: CONNECTIONS };
}

/**
 * One cell per target for `op`. Targets measured together (today's production server and the
 * previous release's) take turns, `rounds` runs each, so a change in the machine's load between
 * them falls on both alike; their figures are the sums over the rounds.
 */
async function measure(targets: Target[], op: Op, rounds = 1): Promise<Cell[]> {
  const expected = op === 'create' ? 201 : op === 'invalid' ? 400 : 200;
  const sums = targets.map(() => ({ requests: 0, cpuMs: 0, answered: 0, failed: 0, p50: [] as number[], p99: 0 }));
  // A short warm-up so JIT and caches are hot before the measured runs.
  for (const target of targets) await autocannon({ ...requestOf(target, op), duration: 1 });
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) {
      const cpuBefore = cpuMs(target.pid);
      const result = await autocannon({ ...requestOf(target, op), duration: DURATION_S / rounds });
      const sum = sums[index]!;
      sum.cpuMs += cpuMs(target.pid) - cpuBefore;
      sum.requests += result.requests.total;
      sum.answered += result.statusCodeStats?.[String(expected) as `${number}`]?.count ?? 0;
      sum.failed += result.errors + result.timeouts;
      sum.p50.push(result.latency.p50);
      sum.p99 = Math.max(sum.p99, result.latency.p99);
    }
  }
  return targets.map((target, index) => {
    const sum = sums[index]!;
    const wrong = sum.requests - sum.answered + sum.failed + (sum.answered === 0 ? 1 : 0);
    if (wrong > 0) log(`${target.name} ${op}: ${wrong} responses were not ${expected}`);
    const p50 = sum.p50.sort((a, b) => a - b)[Math.floor(sum.p50.length / 2)]!;
    return {
      target: target.name,
      op,
      rps: sum.requests / DURATION_S,
      p50,
      p99: sum.p99,
      non2xx: wrong,
      cpuUs: (sum.cpuMs * 1000) / sum.requests,
    };
  });
}

export const DEVELOPMENT = 'server, development';
export const PRODUCTION = 'server, production';
const PREVIOUS = `server ${PREVIOUS_RELEASE.version}, production`;
const FLOOR = 'node:http (floor)';
const EXPRESS = 'bare express';
const PRISM = 'prism mock';
/** Server CPU per request that production mode may spend: the budget the benchmark holds it to. */
const CPU_TARGET_US: Record<'list' | 'read' | 'create', number> = { read: 120, list: 200, create: 250 };

export function httpTable(cells: Cell[]): string {
  const pad = (text: string, width: number) => text.padEnd(width);
  const lines = [`| target | op | req/s | p50 ms | p99 ms | server CPU µs/req | errors |`, `|---|---|---:|---:|---:|---:|---:|`];
  for (const cell of cells) {
    lines.push(
      `| ${pad(cell.target, 20)} | ${pad(cell.op, 7)} | ${cell.rps.toFixed(0)} | ${cell.p50} | ${cell.p99} | ${Number.isNaN(cell.cpuUs) ? '–' : cell.cpuUs.toFixed(0)} | ${cell.non2xx} |`,
    );
  }
  return lines.join('\n');
}

/** The targets as ratios measured in this run. */
export function httpTargets(cells: Cell[]): string {
  const find = (target: string, op: Op) => cells.find((cell) => cell.target === target && cell.op === op);
  const rps = (target: string, op: Op) => find(target, op)?.rps ?? Number.NaN;
  const lines = [
    `| op | development ÷ prism (target ≥ 5×) | production CPU µs/req (target) | production CPU ÷ ${PREVIOUS_RELEASE.version}'s (target ≤ 100 %) | development ÷ floor | production ÷ floor | bare express ÷ floor |`,
    `|---|---:|---:|---:|---:|---:|---:|`,
  ];
  for (const op of ['list', 'read', 'create'] as const) {
    const vsPrism = rps(DEVELOPMENT, op) / rps(PRISM, op);
    const cpu = find(PRODUCTION, op)?.cpuUs ?? Number.NaN;
    const vsPrevious = cpu / (find(PREVIOUS, op)?.cpuUs ?? Number.NaN);
    const percent = (value: number) => `${(value * 100).toFixed(0)} %`;
    lines.push(
      `| ${op} | ${vsPrism.toFixed(1)}× ${vsPrism >= 5 ? 'met' : 'MISSED'} | ${cpu.toFixed(0)} (≤ ${CPU_TARGET_US[op]}) ${cpu <= CPU_TARGET_US[op] ? 'met' : 'MISSED'} | ${percent(vsPrevious)} ${vsPrevious <= 1 ? 'met' : 'MISSED'} | ${percent(rps(DEVELOPMENT, op) / rps(FLOOR, op))} | ${percent(rps(PRODUCTION, op) / rps(FLOOR, op))} | ${percent(rps(EXPRESS, op) / rps(FLOOR, op))} |`,
    );
  }
  return lines.join('\n');
}

export async function runHttpBench(): Promise<Cell[]> {
  const dir = mkdtempSync(join(tmpdir(), 'secmon-bench-'));
  const targets: Target[] = [];
  try {
    log(`${DURATION_S} s per cell (after 1 s of warm-up), ${CONNECTIONS} connections, loopback`);
    log('starting targets');
    const development = await referenceServer(DEVELOPMENT, 'development', dir);
    targets.push(development);
    targets.push(await referenceServer(PRODUCTION, 'production', dir));
    targets.push(await referenceServer(PREVIOUS, 'production', dir, previousReleaseTree(log)));
    const get = async (path: string) => (await fetch(development.url + path, { headers: HEADERS })).json();
    const read = await get(`/v1/findings/${development.readId}`);
    const bodies = { list: await get('/v1/findings'), read, created: read };
    targets.push(await bareServer(FLOOR, [], bodies, development.readId));
    targets.push(await bareServer(EXPRESS, ['--express'], bodies, development.readId));
    targets.push(await prism());
    const cells: Cell[] = [];
    // Today's production server and the previous release's are measured together, in turns.
    const turns = targets.filter((target) => target.name === PRODUCTION || target.name === PREVIOUS);
    const groups = [...targets.filter((target) => !turns.includes(target)).map((target) => [target]), turns];
    const cellsInAll = OPS.length * targets.length - targets.filter((target) => !target.validates).length;
    for (const op of OPS) {
      for (const group of groups) {
        const measured = group.filter((target) => op !== 'invalid' || target.validates);
        if (measured.length === 0) continue;
        log(`[${cells.length + 1}/${cellsInAll}] ${measured.map((target) => target.name).join(' and ')} ${op}…`);
        cells.push(...(await measure(measured, op, measured.length > 1 ? ROUNDS : 1)));
      }
    }
    return cells;
  } finally {
    await Promise.allSettled(targets.map((target) => target.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const cells = await runHttpBench();
  process.stdout.write(`\n${httpTable(cells)}\n\n${httpTargets(cells)}\n`);
}
