// The PostgreSQL store where several instances meet: two stores (two pools, as two server
// processes have) on one database. What the HTTP suites cannot see from outside: which claim got
// which delivery, a lease that ran out, when a wake-up arrives, and the shared rate limit.

import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../../packages/api/src/events.ts';
import { newWebhook } from '../../../packages/core/src/domain/webhooks.ts';
import { publish } from '../../../packages/core/src/index.ts';
import { sleep, waitUntil } from '../../../scripts/wait.ts';
import { MIGRATIONS } from '../../../server/store/postgres/schema.ts';
import type { ClaimedDelivery, Store } from '../../../server/store/store.ts';
import { claimDue } from '../../../server/webhooks/claim.ts';
import { EndpointScheduler } from '../../../server/webhooks/endpoints.ts';
import { type Attempt, recordAttempts } from '../../../server/webhooks/outcomes.ts';
import { startTestServer, type TestServer } from '../../server/helpers.ts';
import { twoInstancesPerTest } from '../../support/postgres.ts';

const NOW = Date.parse('2026-11-02T09:30:00Z');
const event = (index: number): EventOf<'finding.created'> => ({
  event: 'finding.created',
  timestamp: '2026-11-02T09:30:00Z',
  data: {
    finding_id: `fnd_01jbz3k7q2w9x8v6t5r4p3n${String(index).padStart(3, '0')}`,
    severity: 'high',
    title: 'SSH root login enabled',
    device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
    policy_id: null,
  },
});
// Generous limits: these tests look at which deliveries are claimed, not at the endpoint policy.
const scheduler = () => new EndpointScheduler({ concurrency: 1000, maxPerEndpoint: 1000, probeAfterMs: 1000 });

let database: string;
let a: Store;
let b: Store;
twoInstancesPerTest((...opened) => ([database, a, b] = opened));

async function queue(store: Store, events: number, webhooks = 2): Promise<void> {
  for (let index = 0; index < webhooks; index++) {
    await store.webhooks.insert(
      newWebhook(`whk_0${index}`, { url: `https://receiver.example.com/${index}`, events: ['finding.created'] }, '2026-11-02T09:00:00Z'),
    );
  }
  for (let index = 0; index < events; index++) await publish(store, event(index), new Date(NOW));
}

const claim = (store: Store, limit: number, now = NOW, leaseMs = 30_000) => {
  const endpoints = scheduler();
  return claimDue(store.outbox, { now, limit, leaseMs, plan: (leased) => endpoints.plan(now, leased) });
};

describe('PostgreSQL store, two instances on one database', () => {
  it('the schema is applied once when both open an empty database at the same time', async () => {
    const client = new pg.Client(database);
    await client.connect();
    const { rows } = await client.query('SELECT version FROM schema_migrations');
    await client.end();
    expect(rows).toEqual(MIGRATIONS.map((_, index) => ({ version: index + 1 })));
  });

  it('concurrent claims never hand out the same delivery, and what they leave is claimed next', async () => {
    await queue(a, 30);
    const claims = await Promise.all(Array.from({ length: 6 }, (_, index) => claim(index % 2 ? a : b, 12)));
    // A claim that took something does not wait for a webhook another claim holds (its dispatcher
    // looks again when its attempts end), so how much one round takes depends on the interleaving;
    // what it leaves must be due for the next claims.
    for (let round = 0; round < 6; round++) claims.push(await claim(round % 2 ? a : b, 12));
    const ids = claims.flat().map((delivery) => delivery.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(60);
    expect(await claim(a, 10)).toEqual([]);
  });

  it('a lease that ran out is claimed again elsewhere, and the first outcome is then not recorded', async () => {
    await queue(a, 1, 1);
    const [first] = await claim(a, 1, NOW, 1000);
    expect(first).toBeDefined();
    expect(await claim(b, 1, NOW + 500)).toEqual([]);
    const [second] = (await claim(b, 1, NOW + 1001)) as [ClaimedDelivery];
    expect(second.id).toBe(first!.id);
    const record = (store: Store, attempt: Attempt) => store.outbox.record((tx) => recordAttempts(tx, [attempt]));
    const [late] = await record(a, { delivery: first!, outcome: { kind: 'delivered', status: 200 }, at: NOW + 1100 });
    expect(late).toEqual({ disabled: null, stale: true });
    const [current] = await record(b, {
      delivery: second,
      outcome: { kind: 'retry', status: 500, cause: 'http', error: 'HTTP 500', dueAt: NOW + 9000 },
      at: NOW + 1200,
    });
    expect(current).toEqual({ disabled: null });
    expect(await a.outbox.listDeliveries('whk_00')).toMatchObject([{ state: 'pending', attempts: 1, lastStatus: 500, dueAt: NOW + 9000 }]);
  });

  it('counts leases of every instance against the endpoint limit', async () => {
    await queue(a, 10, 1);
    const limited = () => new EndpointScheduler({ concurrency: 100, maxPerEndpoint: 3, probeAfterMs: 1000 });
    const endpoints = [limited(), limited()];
    const take = (store: Store, index: number) =>
      claimDue(store.outbox, { now: NOW, limit: 10, leaseMs: 30_000, plan: (leased) => endpoints[index]!.plan(NOW, leased) });
    const first = await take(a, 0);
    const second = await take(b, 1);
    expect(first.length + second.length).toBe(3);
  });

  describe('claims lock only the webhooks they lease for', () => {
    const limited = () => new EndpointScheduler({ concurrency: 100, maxPerEndpoint: 3, probeAfterMs: 1000 });
    const take = (store: Store, limit = 10) => {
      const endpoints = limited();
      return claimDue(store.outbox, { now: NOW, limit, leaseMs: 30_000, plan: (leased) => endpoints.plan(NOW, leased) });
    };
    /** A claim on `store` that locks whk_00 and leases `lease` of its deliveries, then stays open until released. */
    async function holdClaim(store: Store, lease: number) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const done = store.outbox.claim(async (tx) => {
        expect(await tx.lockWebhooks(['whk_00'], NOW, { wait: true })).toEqual(new Map([['whk_00', 0]]));
        const due = await tx.due({ now: NOW, exclude: new Set(['whk_01']), retriesOnly: new Set(), limit: lease });
        if (due.length > 0)
          await tx.lease(
            due.map((row) => row.id),
            NOW + 30_000,
            NOW,
          );
        holding();
        await released;
      });
      await held;
      return async () => {
        release();
        await done;
      };
    }
    /** The claim's result, or 'still waiting' when it has not ended within `ms` (a bound, not a speed). */
    const within = <T>(claim: Promise<T>, ms: number) => Promise.race([claim, sleep(ms).then(() => 'still waiting' as const)]);

    it('a claim held open on one webhook does not hold up another instance claiming for another', async () => {
      await queue(a, 3);
      const end = await holdClaim(a, 0);
      const other = b.outbox.claim(async (tx) => tx.lockWebhooks(['whk_01'], NOW, { wait: true }));
      expect(await within(other, 10_000)).toEqual(new Map([['whk_01', 0]]));
      // A claim that sees both webhooks' deliveries takes the free one's without waiting for the held one.
      const claimed = await within(take(b, 3), 10_000);
      expect(claimed).not.toBe('still waiting');
      expect((claimed as ClaimedDelivery[]).map((delivery) => delivery.webhookId)).toEqual(['whk_01', 'whk_01', 'whk_01']);
      await end();
      expect((await take(a)).map((delivery) => delivery.webhookId)).toEqual(['whk_00', 'whk_00', 'whk_00']);
    });

    it('a claim for a webhook another claim holds waits for it, then counts its leases exactly', async () => {
      await queue(a, 10, 1);
      const end = await holdClaim(a, 2);
      const waiting = take(b);
      const client = new pg.Client(database);
      await client.connect();
      const waitsOnAdvisoryLock = async () =>
        (await client.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'`)).rowCount ===
        1;
      expect(await waitUntil(waitsOnAdvisoryLock, 10_000)).toBe(true);
      await client.end();
      await end();
      // The held claim's two leases, committed while the other waited, leave one of the three slots.
      expect(await waiting).toHaveLength(1);
    });

    it('concurrent claims on both instances for one webhook together keep its limit', async () => {
      await queue(a, 10, 1);
      const claims = await Promise.all(Array.from({ length: 6 }, (_, index) => take(index % 2 ? a : b)));
      const ids = claims.flat().map((delivery) => delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(3);
      expect(await take(a)).toEqual([]);
    });
  });

  it('wakes the other instance once an enqueue commits, not before and not on rollback', async () => {
    await queue(a, 0);
    let wakes = 0;
    const unsubscribe = b.outbox.onEnqueue(() => wakes++);
    // The LISTEN connection opens on the first subscription and then looks once for what was queued meanwhile.
    await waitUntil(() => wakes > 0);
    wakes = 0;
    await a.transaction(async (tx) => {
      await publish(tx, event(1), new Date(NOW));
      await sleep(200);
      expect(wakes).toBe(0);
    });
    expect(await waitUntil(() => wakes === 1, 5000)).toBe(true);
    await expect(
      a.transaction(async (tx) => {
        await publish(tx, event(2), new Date(NOW));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await sleep(300);
    expect(wakes).toBe(1);
    unsubscribe();
  });

  it('pages findings of one device by an index, without sorting', async () => {
    const client = new pg.Client(database);
    await client.connect();
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT f.id FROM findings f WHERE f.device_id = 'dev_1' AND (f.created_at, f.id) < ('2026-11-02T09:30:00Z', 'fnd_z')
       ORDER BY f.created_at DESC, f.id DESC LIMIT 21`,
    );
    await client.end();
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index (Only )?Scan using findings_device/);
    expect(plan).not.toMatch(/Sort/);
  });
});

describe('the rate limit across instances', () => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  it("two instances on one database share each key's quota", async () => {
    servers = await Promise.all([
      startTestServer({ database, rateLimitPerMinute: 10 }),
      startTestServer({ database, rateLimitPerMinute: 10 }),
    ]);
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++) statuses.push((await servers[index % 2]!.fetch('/v1/policies')).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const remaining = (await servers[0]!.fetch('/v1/policies')).headers.get('ratelimit');
    expect(remaining).toMatch(/r=0/);
  });
});
