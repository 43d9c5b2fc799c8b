// Three reference-server processes (the real entry point) on one PostgreSQL database, requests
// spread round-robin as a load balancer would: If-Match writers, idempotent creates, webhook
// delivery shared by three dispatchers, and one instance killed mid-delivery.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvent } from '../../packages/api/src/events.ts';
import { startReceiver, type TestReceiver } from '../../scripts/receiver.ts';
import { type ServerProcess, spawnServer } from '../../scripts/server-process.ts';
import { sleep, waitUntil } from '../../scripts/wait.ts';
import { DEVICE_ID } from '../server/helpers.ts';
import { freshPostgresDatabase } from '../support/postgres.ts';

const KEY = 'multi-instance-key-4e8b2c';
const INSTANCES = 3;

let database: string;
let servers: ServerProcess[] = [];
const receivers: TestReceiver[] = [];

const env = (database: string, extra: Record<string, string> = {}) => ({
  SECMON_DB: database,
  SECMON_API_KEYS: `${KEY}:read+write`,
  SECMON_RATE_LIMIT: '0',
  SECMON_RETRY_SCALE: '0.001',
  SECMON_LOG_LEVEL: 'debug',
  SECMON_DELIVERY_TIMEOUT_MS: '2000',
  // Short enough for the kill test to wait out, longer than any attempt here.
  SECMON_DELIVERY_LEASE_MS: '4000',
  ...extra,
});

let turn = 0;
/** The next instance, round-robin, among those still running. */
function next(): string {
  const alive = servers.filter((server) => server.child.exitCode === null && server.child.signalCode === null);
  return alive[turn++ % alive.length]!.url;
}

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(next() + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });

async function startInstances(extra: Record<string, string> = {}): Promise<void> {
  // Started at once: the migrations must not race either.
  servers = await Promise.all(Array.from({ length: INSTANCES }, () => spawnServer(env(database, extra))));
}

async function stopInstances(): Promise<void> {
  await Promise.all(servers.map((server) => server.kill('SIGTERM')));
  servers = [];
}

/** Delivery ids each instance logged as delivered. */
const deliveredBy = (server: ServerProcess) =>
  server.lines
    .filter((line) => line.includes('"webhook delivered"'))
    .map((line) => (JSON.parse(line) as { delivery_id: string }).delivery_id);
const staleLeases = (server: ServerProcess) => server.lines.filter((line) => line.includes('"duplicate":true')).length;

async function deliveryStates(): Promise<Record<string, number>> {
  const client = new pg.Client(database);
  await client.connect();
  try {
    const { rows } = await client.query<{ state: string; n: string }>('SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state');
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await freshPostgresDatabase();
});
afterAll(async () => {
  await stopInstances();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

describe('three instances on one PostgreSQL database', () => {
  beforeAll(() => startInstances(), 60_000);
  afterAll(stopInstances);

  it('concurrent If-Match writers on different instances: exactly one wins', async () => {
    const created = await call('POST', '/v1/policies', { name: 'Disk encryption', severity: 'high' });
    const policy = (await created.json()) as { id: string };
    const etag = created.headers.get('etag')!;
    const WRITERS = 24;
    const statuses = await Promise.all(
      Array.from({ length: WRITERS }, (_, index) =>
        call('PUT', `/v1/policies/${policy.id}`, { name: `Writer ${index}`, severity: 'low' }, { 'if-match': etag }).then(
          (response) => response.status,
        ),
      ),
    );
    const winners = statuses.filter((status) => status === 200).length;
    console.log(
      `multi-instance If-Match: ${WRITERS} writers over ${INSTANCES} instances, ${winners} winner, ${statuses.filter((status) => status === 412).length} got 412`,
    );
    expect(winners).toBe(1);
    expect(statuses.filter((status) => status === 412)).toHaveLength(WRITERS - 1);
    const final = (await (await call('GET', `/v1/policies/${policy.id}`)).json()) as { version: number };
    expect(final.version).toBe(2);
  });

  it('concurrent creates with one Idempotency-Key on different instances: one resource, the rest replay it', async () => {
    const CALLERS = 24;
    const body = { name: `Idempotent ${Date.now()}`, severity: 'medium' };
    const responses = await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        const response = await call('POST', '/v1/policies', body, { 'idempotency-key': 'one-create-across-instances' });
        return {
          status: response.status,
          replayed: response.headers.get('idempotent-replayed'),
          id: ((await response.json()) as { id: string }).id,
        };
      }),
    );
    const ids = new Set(responses.map((response) => response.id));
    console.log(
      `multi-instance idempotency: ${CALLERS} concurrent creates, ${ids.size} resource, ${responses.filter((response) => response.replayed === 'true').length} replays`,
    );
    expect(responses.every((response) => response.status === 201)).toBe(true);
    expect(ids.size).toBe(1);
    expect(responses.filter((response) => response.replayed === null)).toHaveLength(1);
    const listed = (await (await call('GET', '/v1/policies?limit=100')).json()) as { data: { name: string }[] };
    expect(listed.data.filter((policy) => policy.name === body.name)).toHaveLength(1);
  });

  it('200 events to 5 webhooks: every delivery arrives once, the three dispatchers share the work', async () => {
    const EVENTS = 200;
    const WEBHOOKS = 5;
    const receiver = await startReceiver(200);
    receivers.push(receiver);
    for (let index = 0; index < WEBHOOKS; index++) {
      expect((await call('POST', '/v1/webhooks', { url: `${receiver.url}/hook-${index}`, events: ['finding.created'] })).status).toBe(201);
    }
    const findings: string[] = [];
    for (let start = 0; start < EVENTS; start += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, async (_, offset) => {
          const response = await call('POST', '/v1/findings', {
            title: `Finding ${start + offset}`,
            severity: 'low',
            device_id: DEVICE_ID,
          });
          return ((await response.json()) as { id: string }).id;
        }),
      );
      findings.push(...batch);
    }
    const expected = EVENTS * WEBHOOKS;
    const arrived = () =>
      new Set(
        receiver.receipts.map(
          (receipt) => `${receipt.path} ${(parseEvent(receipt.body) as { data: { finding_id: string } }).data.finding_id}`,
        ),
      );
    expect(await waitUntil(() => arrived().size >= expected, 60_000)).toBe(true);
    await sleep(300);

    const distinctIds = new Set(receiver.receipts.map((receipt) => receipt.headers['x-service-delivery']));
    const duplicates = receiver.receipts.length - distinctIds.size;
    const stale = servers.reduce((sum, server) => sum + staleLeases(server), 0);
    const shares = servers.map((server) => deliveredBy(server).length);
    const lost = findings
      .flatMap((id) => Array.from({ length: WEBHOOKS }, (_, index) => `/hook-${index} ${id}`))
      .filter((key) => !arrived().has(key));
    console.log(
      `multi-instance delivery: ${EVENTS} events x ${WEBHOOKS} webhooks = ${expected} deliveries; ${arrived().size} arrived, ${lost.length} lost, ` +
        `${duplicates} duplicates (${stale} from expired leases); delivered per instance ${shares.join(' / ')}`,
    );
    expect(lost).toEqual([]);
    expect(distinctIds.size).toBe(expected);
    // A duplicate only ever comes from a lease that ran out, and each is counted in the logs.
    expect(duplicates).toBe(stale);
    expect(shares.reduce((sum, share) => sum + share, 0)).toBe(expected);
    expect(shares.every((share) => share > 0)).toBe(true);
    expect(await waitUntil(async () => (await deliveryStates()).delivered === expected)).toBe(true);
  }, 90_000);
});

describe('an instance killed mid-delivery', () => {
  const settings = { SECMON_DELIVERY_CONCURRENCY: '3', SECMON_DELIVERY_PER_WEBHOOK: '9' };
  beforeAll(async () => {
    database = await freshPostgresDatabase();
  });
  afterAll(stopInstances);

  it('the others send its deliveries once its leases run out; nothing is lost', async () => {
    const EVENTS = 30;
    // The victim starts alone, so the first requests are surely its own; each is held 1.5 s
    // (within the 2 s time-out), and with a backlog its 3 slots stay busy at the receiver until
    // it dies. The two others join before the kill.
    const receiver = await startReceiver({ status: 200, delayMs: 1500 });
    receivers.push(receiver);
    servers = [await spawnServer(env(database, settings))];
    const victim = servers[0]!;
    expect((await call('POST', '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['finding.created'] })).status).toBe(201);
    const findings = await Promise.all(
      Array.from({ length: EVENTS }, async (_, index) => {
        const response = await call('POST', '/v1/findings', { title: `Finding ${index}`, severity: 'low', device_id: DEVICE_ID });
        return ((await response.json()) as { id: string }).id;
      }),
    );
    await receiver.waitFor(3, 20_000);
    servers.push(...(await Promise.all([spawnServer(env(database, settings)), spawnServer(env(database, settings))])));
    const inFlightAtKill = receiver.receipts.length;
    await victim.kill('SIGKILL');
    const killedAt = Date.now();

    const received = () =>
      new Set(receiver.receipts.map((receipt) => (parseEvent(receipt.body) as { data: { finding_id: string } }).data.finding_id));
    expect(await waitUntil(() => received().size >= EVENTS, 60_000)).toBe(true);
    // Every event arrived once; the victim's in-flight deliveries are sent again only when their
    // leases run out, behind the backlog, and recorded 1.5 s later: wait until all are recorded.
    expect(await waitUntil(async () => (await deliveryStates()).delivered === EVENTS, 20_000)).toBe(true);
    const lost = findings.filter((id) => !received().has(id));
    const ids = receiver.receipts.map((receipt) => receipt.headers['x-service-delivery'] as string);
    const duplicates = ids.length - new Set(ids).size;
    // A request the victim had in flight reached the receiver but was never recorded: another
    // instance sends it again, and only once the victim's lease has run out.
    const firstAt = new Map<string, number>();
    const resentAfterMs: number[] = [];
    for (const receipt of receiver.receipts) {
      const id = receipt.headers['x-service-delivery'] as string;
      const first = firstAt.get(id);
      if (first === undefined) firstAt.set(id, receipt.at);
      else resentAfterMs.push(receipt.at - first);
    }
    console.log(
      `multi-instance SIGKILL: ${EVENTS} events, ${inFlightAtKill} requests before the kill, ${lost.length} lost, ${duplicates} duplicates ` +
        `(at most the victim's 3 slots), resent ${resentAfterMs.map(Math.round).join(', ')} ms after their first arrival (lease 4000 ms), ` +
        `all recorded delivered ${Date.now() - killedAt} ms after the kill`,
    );
    expect(lost).toEqual([]);
    // Only what the victim had in flight can arrive twice: it may have reached the receiver unrecorded.
    expect(duplicates).toBeGreaterThan(0);
    expect(duplicates).toBeLessThanOrEqual(3);
    // The first copy arrived within the attempt time-out (2000 ms) of the victim's claim, and the
    // lease (4000 ms) ran from that claim: no copy is resent before the lease could have run out.
    for (const gap of resentAfterMs) expect(gap).toBeGreaterThan(4000 - 2000);
    expect(await deliveryStates()).toEqual({ delivered: EVENTS });
  }, 90_000);
});
