// Scale benchmark (`npm run bench`): the same requests against databases of 1k, 100k and 1M
// findings, side by side in one run, through the reference server's public factory on loopback.
// Each cell is the median of REPEATS sequential requests after a warm-up; the last column is the
// growth from the smallest to the largest database (target ≤ 3×: lists stay O(limit), reads and
// the compliance checks O(1) per policy).
// Policies and webhooks are written through the store; findings through one prepared INSERT into
// the server's own schema per row (the store's write path queues an event per finding, which
// would make building a million rows take far longer without changing what is read).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { components } from '../generated/schema.d.ts';
import { EVENT_TYPES } from '../packages/api/src/events.ts';
import { type CursorPosition, encodeCursor } from '../packages/core/src/domain/cursor.ts';
import { encodeBase32, uuidv7Bytes } from '../packages/core/src/domain/ids.ts';
import { newPolicy } from '../packages/core/src/domain/policies.ts';
import { newWebhook } from '../packages/core/src/domain/webhooks.ts';
import { parseApiKeys, testConfig } from '../server/config.ts';
import { nodePlatform } from '../server/platform.ts';
import { startServer } from '../server/server.ts';
import { type DatabaseSync, openDatabase, transaction } from '../server/store/sqlite/database.ts';
import { insertPolicy } from '../server/store/sqlite/policies.ts';
import { insertWebhook } from '../server/store/sqlite/webhooks.ts';

type Severity = components['schemas']['Severity'];
type FindingStatus = components['schemas']['FindingStatus'];

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_SCALE_REPEATS ?? 30);
const WARM_UP = 5;
const TARGET_GROWTH = 3;
const POLICIES = 100; // each referenced by 1 % of the findings
const FINDINGS_PER_DEVICE = 100; // a device's findings do not grow with the tenant
const WEBHOOKS = 20;
const BATCH = 50_000;
const KEY = 'bench-scale-key-0123456789';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const EVENTS = EVENT_TYPES;

const log = (message: string) => process.stderr.write(`bench scale: ${message}\n`);

/** mulberry32: the same data at every run, so runs compare. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, weighted: [T, number][]): T {
  let roll = next();
  for (const [value, weight] of weighted) if ((roll -= weight) < 0) return value;
  return weighted.at(-1)![0];
}

const SEVERITIES: [Severity, number][] = [
  ['info', 0.1],
  ['low', 0.3],
  ['medium', 0.4],
  ['high', 0.18],
  ['critical', 0.02],
];
// resolved is the rare status (0.1 %), so a filter on it shows whether a rare value is sought through an index or scanned for.
const STATUSES: [FindingStatus, number][] = [
  ['open', 0.6],
  ['in_progress', 0.099],
  ['suppressed', 0.3],
  ['resolved', 0.001],
];
const id = (prefix: string, ms: number, next: () => number) =>
  `${prefix}_${encodeBase32(
    uuidv7Bytes(
      ms,
      Uint8Array.from({ length: 10 }, () => Math.floor(next() * 256)),
    ),
  )}`;

interface Dataset {
  path: string;
  findings: number;
  /** A finding, a device and a policy the requests name; the middle row for deep pages. */
  finding: string;
  device: string;
  policy: string;
  middle: CursorPosition;
}

function build(dir: string, findings: number): Dataset {
  const path = join(dir, `scale-${findings}.db`);
  const db = openDatabase(path);
  db.exec('PRAGMA cache_size = -262144');
  const next = random(16);
  const created = new Date(START_MS - 1000).toISOString();
  const policies = Array.from(
    { length: POLICIES },
    (_, index) =>
      insertPolicy(db, newPolicy(id('pol', START_MS - 1000, next), { name: `policy ${index}`, severity: pick(next, SEVERITIES) }, created))
        .id,
  );
  for (let index = 0; index < WEBHOOKS; index++) {
    const events = EVENTS.filter(() => next() < 0.5);
    insertWebhook(
      db,
      newWebhook(
        id('whk', START_MS - 1000, next),
        { url: `https://hooks.example/${index}`, events: events.length ? events : ['finding.created'], enabled: index % 4 !== 0 },
        created,
      ),
    );
  }
  const devices = Array.from({ length: Math.max(1, Math.round(findings / FINDINGS_PER_DEVICE)) }, () => id('dev', START_MS, next));
  const dataset = insertFindings(db, findings, devices, policies, next);
  db.close();
  return { path, findings, device: devices[0]!, policy: policies[0]!, ...dataset };
}

function insertFindings(
  db: DatabaseSync,
  count: number,
  devices: string[],
  policies: string[],
  next: () => number,
): Pick<Dataset, 'finding' | 'middle'> {
  const insert = db.prepare(
    `INSERT INTO findings (id, title, description, severity, status, resolution, device_id, policy_id,
       first_seen_at, last_seen_at, resolved_at, created_at, updated_at) VALUES (?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let finding = '';
  let middle: CursorPosition | undefined;
  const started = performance.now();
  for (let from = 0; from < count; from += BATCH) {
    transaction(db, () => {
      for (let row = from; row < Math.min(count, from + BATCH); row++) {
        const ms = START_MS + row * 1000;
        const at = new Date(ms).toISOString();
        const status = pick(next, STATUSES);
        const closed = status === 'resolved' || status === 'suppressed';
        const resolution =
          status === 'resolved' ? '{"reason":"fixed","comment":""}' : closed ? '{"reason":"accepted_risk","comment":""}' : null;
        finding = id('fnd', ms, next);
        const device = devices[Math.floor(next() * devices.length)]!;
        const policy = policies[Math.floor(next() * policies.length)]!;
        insert.run(
          finding,
          `finding ${row}`,
          pick(next, SEVERITIES),
          status,
          resolution,
          device,
          policy,
          at,
          at,
          status === 'resolved' ? at : null,
          at,
          at,
        );
        if (row === Math.floor(count / 2)) middle = { created_at: at, id: finding };
      }
    });
    const done = Math.min(count, from + BATCH);
    log(`  ${done.toLocaleString('en')} / ${count.toLocaleString('en')} findings (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  return { finding, middle: middle! };
}

interface Probe {
  name: string;
  request(data: Dataset): { method?: string; path: string; body?: unknown; status: number };
}

const cursor = (list: string, filters: Record<string, string>, position: CursorPosition) =>
  `cursor=${encodeCursor(nodePlatform.sha256, list, filters, position)}${Object.entries(filters)
    .map(([key, value]) => `&${key}=${value}`)
    .join('')}`;

const list = (name: string, query: (data: Dataset) => string): Probe => ({
  name,
  request: (data) => ({ path: `/v1/findings?${query(data)}`, status: 200 }),
});

const PROBES: Probe[] = [
  list('findings: first page', () => 'limit=20'),
  list('findings: status=resolved (0.1 %)', () => 'status=resolved'),
  list('findings: status=open', () => 'status=open'),
  list('findings: severity=critical (2 %)', () => 'severity=critical'),
  list('findings: device_id (one device)', (data) => `device_id=${data.device}`),
  list('findings: policy_id (1 %)', (data) => `policy_id=${data.policy}`),
  list('findings: status=open & severity=critical', () => 'status=open&severity=critical'),
  list('findings: device_id & status=open', (data) => `device_id=${data.device}&status=open`),
  list('findings: policy_id & status=open', (data) => `policy_id=${data.policy}&status=open`),
  list('findings: policy_id & severity=high', (data) => `policy_id=${data.policy}&severity=high`),
  list('findings: deep cursor page (middle)', (data) => cursor('findings', {}, data.middle)),
  list('findings: deep cursor page, policy_id', (data) => cursor('findings', { policy_id: data.policy }, data.middle)),
  { name: 'findings: read one', request: (data) => ({ path: `/v1/findings/${data.finding}`, status: 200 }) },
  {
    name: 'findings: create (with compliance)',
    request: (data) => ({
      method: 'POST',
      path: '/v1/findings',
      body: { title: 'bench', severity: 'high', device_id: data.device, policy_id: data.policy },
      status: 201,
    }),
  },
  { name: 'policies: read (compliance_status)', request: (data) => ({ path: `/v1/policies/${data.policy}`, status: 200 }) },
  { name: 'policies: delete in use (409)', request: (data) => ({ method: 'DELETE', path: `/v1/policies/${data.policy}`, status: 409 }) },
  { name: 'policies: enabled=true & severity=high', request: () => ({ path: '/v1/policies?enabled=true&severity=high', status: 200 }) },
  { name: 'webhooks: event & enabled=true', request: () => ({ path: '/v1/webhooks?event=finding.created&enabled=true', status: 200 }) },
];

async function measure(url: string, data: Dataset): Promise<number[]> {
  const medians: number[] = [];
  for (const probe of PROBES) {
    const { method = 'GET', path, body, status } = probe.request(data);
    const times: number[] = [];
    for (let attempt = 0; attempt < WARM_UP + REPEATS; attempt++) {
      const started = performance.now();
      const response = await fetch(url + path, { method, headers: HEADERS, body: body === undefined ? null : JSON.stringify(body) });
      await response.arrayBuffer();
      const elapsed = performance.now() - started;
      if (response.status !== status) throw new Error(`${probe.name}: ${response.status}, expected ${status}`);
      if (attempt >= WARM_UP) times.push(elapsed);
    }
    times.sort((a, b) => a - b);
    medians.push(times[Math.floor(times.length / 2)]!);
  }
  return medians;
}

function table(results: { findings: number; medians: number[] }[]): string {
  const size = (count: number) => (count >= 1e6 ? `${count / 1e6}M` : count >= 1e3 ? `${count / 1e3}k` : String(count));
  const first = results[0]!;
  const last = results.at(-1)!;
  const lines = [
    `| request (median of ${REPEATS}, ms) | ${results.map((result) => size(result.findings)).join(' | ')} | growth ${size(first.findings)}→${size(last.findings)} (target ≤ ${TARGET_GROWTH}×) |`,
    `|---|${results.map(() => '---:|').join('')}---:|`,
  ];
  PROBES.forEach((probe, index) => {
    const growth = last.medians[index]! / first.medians[index]!;
    const cells = results.map((result) => result.medians[index]!.toFixed(2)).join(' | ');
    lines.push(`| ${probe.name} | ${cells} | ×${growth.toFixed(2)} ${growth <= TARGET_GROWTH ? 'met' : 'MISSED'} |`);
  });
  return lines.join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'secmon-scale-'));
try {
  log(`sizes ${SIZES.join(', ')}; ${REPEATS} requests per cell after ${WARM_UP} warm-up`);
  const datasets: Dataset[] = [];
  for (const findings of SIZES) {
    log(`building ${findings.toLocaleString('en')} findings`);
    datasets.push(build(dir, findings));
  }
  const results: { findings: number; medians: number[] }[] = [];
  for (const [index, data] of datasets.entries()) {
    log(`measuring ${data.findings.toLocaleString('en')}`);
    const config = testConfig({
      database: data.path,
      apiKeys: parseApiKeys(`${KEY}:read+write`),
      usingDefaultKeys: false,
      rateLimitPerMinute: 0,
      validateResponses: false,
    });
    const server = await startServer(config, { workers: [] });
    try {
      // The first database also warms the JIT up, which would otherwise flatter the growth.
      if (index === 0) await measure(server.url, data);
      results.push({ findings: data.findings, medians: await measure(server.url, data) });
    } finally {
      await server.close();
    }
  }
  process.stdout.write(`\n${table(results)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
