// Webhook delivery benchmark (`npm run bench`, after the HTTP one): findings created through
// POST /v1/findings until each finding.created event is received and its signature verified at a
// local receiver. Burst runs give the throughput; paced runs (200 events/s) the create-to-receipt
// latency. 1 and 10 subscribed webhooks, side by side in one run; every delivery is counted.
// Noisy neighbours: one healthy webhook beside 0, 1, 3 and 10 whose endpoints accept the
// connection and never answer (delivery time-out 2 s); the healthy one's latency against the run
// without dead endpoints.
// The server is a child process (server/main.ts, default delivery settings); the load generator
// and the receiver share this process.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifySignature } from '../packages/api/src/signing.ts';
import { type ServerProcess, spawnServer } from '../scripts/server-process.ts';

const KEY = 'bench-webhooks-key-0123';
const SECRET = 'whsec_bench_0123456789abcdef';
const DEVICE = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const BURST_CLIENTS = 16;
const DRAIN_TIMEOUT_MS = 60_000;

interface Scenario {
  name: string;
  webhooks: number;
  events: number;
  /** Events per second, or undefined for as fast as the server accepts them. */
  rate?: number;
  /** Extra webhooks whose endpoint never answers (noisy-neighbour runs); not counted as deliveries. */
  dead?: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'burst', webhooks: 1, events: Math.round(3000 * SCALE) },
  { name: 'burst', webhooks: 10, events: Math.round(600 * SCALE) },
  { name: '200 events/s', webhooks: 1, events: Math.round(1000 * SCALE), rate: 200 },
  { name: '200 events/s', webhooks: 10, events: Math.round(1000 * SCALE), rate: 200 },
  ...[0, 1, 3, 10].map((dead) => ({ name: `50 events/s, ${dead} dead`, webhooks: 1, events: Math.round(200 * SCALE), rate: 50, dead })),
];
const DEAD_TIMEOUT_MS = 2000;

interface Result {
  scenario: Scenario;
  seconds: number;
  deliveries: number;
  p50: number;
  p99: number;
  max: number;
  lost: number;
  duplicates: number;
  badSignatures: number;
}

const log = (message: string) => process.stderr.write(`bench webhooks: ${message}\n`);

/** Receives deliveries, verifies each signature and records when each (webhook, finding) arrived. */
async function startReceiver(
  onReceipt: (webhookId: string, findingId: string, at: number, verified: boolean) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks);
      const verified = verifySignature(body, req.headers['x-service-signature'], SECRET);
      const event = JSON.parse(body.toString('utf8')) as { data: { finding_id: string } };
      onReceipt(String(req.headers['x-service-webhook-id']), event.data.finding_id, at, verified);
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

/** Accepts connections and never answers: an endpoint that is down behind a live load balancer. */
async function startBlackHole(): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function createFinding(url: string, index: number): Promise<string> {
  const response = await fetch(`${url}/v1/findings`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ title: `Benchmark finding ${index}`, severity: 'medium', device_id: DEVICE }),
  });
  if (response.status !== 201) throw new Error(`POST /v1/findings answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function run(scenario: Scenario, dir: string, index: number): Promise<Result> {
  const sentAt = new Map<number, number>();
  const findingIndex = new Map<string, number>();
  const early: { webhookId: string; findingId: string; at: number }[] = [];
  const received = new Map<string, number>();
  const latencies: number[] = [];
  let badSignatures = 0;
  let lastReceipt = 0;

  const record = (findingId: string, at: number) => latencies.push(at - sentAt.get(findingIndex.get(findingId)!)!);
  const receiver = await startReceiver((webhookId, findingId, at, verified) => {
    if (!verified) badSignatures++;
    lastReceipt = at;
    const key = `${webhookId} ${findingId}`;
    received.set(key, (received.get(key) ?? 0) + 1);
    if (received.get(key)! > 1) return;
    // A delivery can arrive before the POST's response tells us which finding it was.
    if (findingIndex.has(findingId)) record(findingId, at);
    else early.push({ webhookId, findingId, at });
  });

  const server: ServerProcess = await spawnServer({
    SECMON_DB: join(dir, `webhooks-${index}.db`),
    SECMON_API_KEYS: `${KEY}:read+write`,
    SECMON_RATE_LIMIT: '0',
    ...(scenario.dead === undefined ? {} : { SECMON_DELIVERY_TIMEOUT_MS: String(DEAD_TIMEOUT_MS) }),
  });
  const blackHole = await startBlackHole();
  try {
    const subscribe = async (url: string) => {
      const response = await fetch(`${server.url}/v1/webhooks`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ url, events: ['finding.created'], secret: SECRET }),
      });
      if (response.status !== 201) throw new Error(`creating a webhook answered ${response.status}`);
    };
    for (let hook = 0; hook < scenario.webhooks; hook++) await subscribe(receiver.url);
    // Warm-up outside the measurement (JIT, connections); its deliveries are not counted.
    for (let warm = 0; warm < 20; warm++) await createFinding(server.url, -1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let hook = 0; hook < (scenario.dead ?? 0); hook++) await subscribe(`${blackHole.url}/${hook}`);
    received.clear();
    latencies.length = 0;
    early.length = 0;
    badSignatures = 0;

    const started = performance.now();
    const send = async (index: number) => {
      sentAt.set(index, performance.now());
      findingIndex.set(await createFinding(server.url, index), index);
    };
    if (scenario.rate === undefined) {
      let next = 0;
      await Promise.all(
        Array.from({ length: BURST_CLIENTS }, async () => {
          while (next < scenario.events) await send(next++);
        }),
      );
    } else {
      const interval = 1000 / scenario.rate;
      const pending: Promise<void>[] = [];
      for (let index = 0; index < scenario.events; index++) {
        const due = started + index * interval;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        pending.push(send(index));
      }
      await Promise.all(pending);
    }
    for (const { findingId, at } of early.splice(0)) if (findingIndex.has(findingId)) record(findingId, at);

    const expected = scenario.events * scenario.webhooks;
    const deadline = performance.now() + DRAIN_TIMEOUT_MS;
    while (countMeasured(received, findingIndex) < expected && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const { findingId, at } of early.splice(0)) if (findingIndex.has(findingId)) record(findingId, at);
    const distinct = countMeasured(received, findingIndex);
    const measuredReceipts = [...received].filter(([key]) => findingIndex.has(key.split(' ')[1]!)).reduce((sum, [, n]) => sum + n, 0);
    latencies.sort((a, b) => a - b);
    const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    return {
      scenario,
      seconds: (lastReceipt - started) / 1000,
      deliveries: distinct,
      p50: quantile(0.5),
      p99: quantile(0.99),
      max: latencies.at(-1) ?? NaN,
      lost: expected - distinct,
      duplicates: measuredReceipts - distinct,
      badSignatures,
    };
  } finally {
    await server.kill('SIGTERM');
    blackHole.close();
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
}

/** Distinct (webhook, finding) receipts for findings created in the measured phase. */
function countMeasured(received: Map<string, number>, findingIndex: Map<string, number>): number {
  let count = 0;
  for (const key of received.keys()) if (findingIndex.has(key.split(' ')[1]!)) count++;
  return count;
}

function table(results: Result[]): string {
  const lines = [
    '| scenario | webhooks | events | deliveries | events/s | deliveries/s | p50 ms | p99 ms | max ms | lost | duplicates | bad signatures |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const result of results) {
    const { scenario } = result;
    lines.push(
      `| ${scenario.name} | ${scenario.webhooks} | ${scenario.events} | ${result.deliveries} | ${(scenario.events / result.seconds).toFixed(0)} | ` +
        `${(result.deliveries / result.seconds).toFixed(0)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${result.max.toFixed(1)} | ` +
        `${result.lost} | ${result.duplicates} | ${result.badSignatures} |`,
    );
  }
  return lines.join('\n');
}

/** The healthy webhook beside dead ones, against the same run without them. */
function noisyTable(results: Result[]): string {
  const noisy = results.filter((result) => result.scenario.dead !== undefined);
  const baseline = noisy.find((result) => result.scenario.dead === 0);
  if (!baseline) return '';
  const lines = [
    `Noisy neighbours: 1 healthy webhook and N whose endpoints never answer (delivery time-out ${DEAD_TIMEOUT_MS} ms), 50 events/s`,
    '',
    '| dead endpoints | healthy deliveries | healthy p50 ms | healthy p99 ms | p50 × baseline | p99 × baseline | lost |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const result of noisy) {
    lines.push(
      `| ${result.scenario.dead} | ${result.deliveries} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ` +
        `${(result.p50 / baseline.p50).toFixed(2)} | ${(result.p99 / baseline.p99).toFixed(2)} | ${result.lost} |`,
    );
  }
  return lines.join('\n');
}

function verdicts(results: Result[]): string {
  const bestRate = Math.max(
    ...results.filter((result) => result.scenario.rate === undefined).map((result) => result.deliveries / result.seconds),
  );
  const paced = results.filter((result) => result.scenario.rate === 200);
  const noisy = results.filter((result) => result.scenario.dead !== undefined);
  const baseline = noisy.find((result) => result.scenario.dead === 0);
  const lost = results.reduce((sum, result) => sum + result.lost + result.badSignatures, 0);
  return [
    `deliveries/s (best burst): ${bestRate.toFixed(0)} — target ≥ 1000: ${bestRate >= 1000 ? 'met' : 'MISSED'}`,
    ...paced.map(
      (result) =>
        `p99 at 200 events/s, ${result.scenario.webhooks} webhook(s): ${result.p99.toFixed(1)} ms — target < 250 ms: ${result.p99 < 250 ? 'met' : 'MISSED'}`,
    ),
    ...noisy
      .filter((result) => baseline && result !== baseline)
      .map((result) => {
        const ratio = result.p99 / baseline!.p99;
        return `healthy p99 beside ${result.scenario.dead} dead endpoint(s): ×${ratio.toFixed(2)} of baseline — target ≤ ×2: ${ratio <= 2 ? 'met' : 'MISSED'}`;
      }),
    `lost or unverified deliveries: ${lost} — target 0: ${lost === 0 ? 'met' : 'MISSED'}`,
  ].join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'secmon-bench-webhooks-'));
try {
  const results: Result[] = [];
  for (const [index, scenario] of SCENARIOS.entries()) {
    log(`${scenario.name}, ${scenario.webhooks} webhook(s), ${scenario.events} events…`);
    const result = await run(scenario, dir, index);
    log(`  ${result.deliveries} deliveries in ${result.seconds.toFixed(2)} s, p99 ${result.p99.toFixed(1)} ms, ${result.lost} lost`);
    results.push(result);
  }
  const main = results.filter((result) => result.scenario.dead === undefined);
  process.stdout.write(
    `\nWebhook delivery, POST /v1/findings → verified receipt (loopback, server in a child process)\n\n${table(main)}\n\n${noisyTable(results)}\n\n${verdicts(results)}\n`,
  );
  if (results.some((result) => result.lost > 0 || result.badSignatures > 0)) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
