// The outbox on each store (the project decides which, test/store/open-store.ts): transactional
// enqueue, subscriber selection, leases, per-webhook limits, cancellation, the outcome of each
// attempt and pruning, through the one delivery engine (server/webhooks/claim.ts, outcomes.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../generated/schema.d.ts';
import type { EventOf, EventType } from '../../lib/events.ts';
import { newWebhook, replacedWebhook } from '../../server/domain/webhooks.ts';
import { serializeEvent } from '../../server/store/event-body.ts';
import type { ClaimedDelivery, Store } from '../../server/store/store.ts';
import { claimDue } from '../../server/webhooks/claim.ts';
import { EndpointScheduler } from '../../server/webhooks/endpoints.ts';
import { type AttemptOutcome, recordAttempts } from '../../server/webhooks/outcomes.ts';
import { openTestStore } from './open-store.ts';

type WebhookUpdate = components['schemas']['WebhookUpdate'];

const NOW = Date.parse('2026-11-02T09:30:00Z');
const event: EventOf<'finding.created'> = {
  event: 'finding.created',
  timestamp: '2026-11-02T09:30:00Z',
  data: {
    finding_id: 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
    severity: 'high',
    title: 'SSH root login enabled',
    device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
    policy_id: null,
  },
};

let store: Store;
beforeEach(async () => {
  ({ store } = await openTestStore());
});
afterEach(async () => {
  await store.close();
});

const url = (id: string) => `http://127.0.0.1:9/${id}`;
async function addWebhook(id: string, events: string[], { enabled = true, secret = null as string | null } = {}) {
  await store.webhooks.insert(
    newWebhook(id, { url: url(id), events: events as EventType[], enabled, ...(secret ? { secret } : {}) }, '2026-11-01T00:00:00Z'),
  );
}
const replace = async (id: string, input: WebhookUpdate, now: string) =>
  store.webhooks.replace(replacedWebhook((await store.webhooks.get(id))!, input, now));
const enqueue = (body = event as Parameters<Store['outbox']['enqueue']>[0], now = NOW) => store.outbox.enqueue(body, new Date(now));

const endpoints = (maxPerEndpoint = 100) => new EndpointScheduler({ concurrency: 1000, maxPerEndpoint, probeAfterMs: 1000 });
// One dispatcher, planning alone: leases of the claims before are its own (the multi-instance
// planning is tested in postgres/instances.test.ts).
const claim = (now = NOW, limit = 100, scheduler = endpoints()) =>
  claimDue(store.outbox, { now, limit, leaseMs: 10_000, plan: () => scheduler.plan(now) });
const record = async (delivery: ClaimedDelivery, outcome: AttemptOutcome, at: number) =>
  (await store.outbox.record((tx) => recordAttempts(tx, [{ delivery, outcome, at }])))[0];

describe('enqueue', () => {
  it('queues one delivery per enabled subscribed webhook, with its own UUID and the body serialised once', async () => {
    await addWebhook('whk_a', ['finding.created', 'scan.completed']);
    await addWebhook('whk_b', ['finding.created']);
    await addWebhook('whk_other', ['scan.completed']);
    await addWebhook('whk_off', ['finding.created'], { enabled: false });
    expect(await store.transaction((tx) => tx.outbox.enqueue(event, new Date(NOW)))).toBe(2);

    const claimed = await claim();
    expect(claimed.map((delivery) => delivery.webhookId).sort()).toEqual(['whk_a', 'whk_b']);
    expect(new Set(claimed.map((delivery) => delivery.id)).size).toBe(2);
    for (const delivery of claimed) {
      expect(delivery.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(delivery.body).toBe(JSON.stringify(event));
      expect(delivery.eventType).toBe('finding.created');
    }
    expect(await store.outbox.listEvents()).toEqual([event]);
  });

  it('writes nothing when the surrounding transaction rolls back', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await expect(
      store.transaction(async (tx) => {
        await tx.outbox.enqueue(event);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await store.outbox.listEvents()).toEqual([]);
    expect((await store.outbox.countDeliveries()).pending).toBe(0);
  });

  it('refuses a body its webhook schema does not allow, writing nothing', async () => {
    await addWebhook('whk_a', ['finding.created']);
    const bad = { ...event, data: { ...event.data, severity: 'apocalyptic' } } as unknown as typeof event;
    await expect(store.outbox.enqueue(bad)).rejects.toThrow(/invalid finding\.created event.*severity/);
    expect((await store.outbox.countDeliveries()).pending).toBe(0);
  });

  it('caps the serialised size', () => {
    const size = Buffer.byteLength(JSON.stringify(event));
    expect(serializeEvent(event, size)).toBe(JSON.stringify(event));
    expect(() => serializeEvent(event, size - 1)).toThrow(`refusing to queue a finding.created event of ${size} bytes (cap ${size - 1})`);
  });

  it('stores no event when nobody subscribes', async () => {
    await addWebhook('whk_other', ['scan.completed']);
    expect(await enqueue()).toBe(0);
    expect(await store.outbox.listEvents()).toEqual([]);
  });

  it('only to the webhook named, when it subscribes', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await addWebhook('whk_b', ['finding.created']);
    expect(await store.outbox.enqueue(event, new Date(NOW), 'whk_b')).toBe(1);
    expect(await store.outbox.enqueue(event, new Date(NOW), 'whk_none')).toBe(0);
    expect((await claim()).map((delivery) => delivery.webhookId)).toEqual(['whk_b']);
  });
});

describe('claims', () => {
  it('lease: a claimed delivery is not claimed again until its lease runs out', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await enqueue();
    const [first] = await claim();
    expect(first).toMatchObject({ leasedUntil: NOW + 10_000 });
    expect(await claim(NOW + 5_000)).toEqual([]);
    // The process died mid-attempt: once the lease expires the same delivery is due again.
    expect((await claim(NOW + 10_001)).map((delivery) => delivery.id)).toEqual([first!.id]);
  });

  it('resumeOrphaned: SQLite (one server holds the file) makes leases due at once; on PostgreSQL they run out by themselves', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await enqueue();
    const [first] = await claim();
    expect(await store.outbox.resumeOrphaned(NOW + 1)).toBe(store.engine === 'sqlite' ? 1 : 0);
    expect((await claim(NOW + 2)).map((delivery) => delivery.id)).toEqual(store.engine === 'sqlite' ? [first!.id] : []);
  });

  it('releaseLease gives a delivery back without counting an attempt', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await enqueue();
    const [first] = await claim();
    await store.outbox.releaseLease(first!, NOW + 1);
    expect(await claim(NOW + 1)).toMatchObject([{ id: first!.id, attempts: 0 }]);
  });

  it('keeps each webhook under its concurrency limit, counting attempts already in flight', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await addWebhook('whk_b', ['finding.created']);
    for (let index = 0; index < 5; index++) await enqueue();
    const scheduler = endpoints(2);
    scheduler.started('whk_a');
    const first = await claim(NOW, 100, scheduler);
    const count = (list: ClaimedDelivery[], id: string) => list.filter((delivery) => delivery.webhookId === id).length;
    expect(count(first, 'whk_a')).toBe(1);
    expect(count(first, 'whk_b')).toBe(2);
    expect(await claim(NOW, 1)).toHaveLength(1);
  });

  it("finds a webhook's delivery behind another webhook's older backlog that cannot be sent now", async () => {
    await addWebhook('whk_backlog', ['finding.created']);
    for (let index = 0; index < 50; index++) await enqueue(event, NOW - 1000 + index);
    await addWebhook('whk_b', ['finding.created']);
    await enqueue();
    const scheduler = endpoints(1);
    scheduler.started('whk_backlog');
    // The plan's blocked list leaves the backlog out of the query.
    expect((await claim(NOW, 2, scheduler)).map((delivery) => delivery.webhookId)).toEqual(['whk_b']);
    // Not blocked up front, the backlog fills the first window; once passed over it is left out.
    expect((await claim(NOW, 2, endpoints(1))).map((delivery) => delivery.webhookId)).toEqual(['whk_backlog']);
    await enqueue();
    expect((await claim(NOW, 2, endpoints(1))).map((delivery) => delivery.webhookId)).toEqual(['whk_backlog', 'whk_b']);
  });

  it('gives every webhook its first attempt before any webhook a second', async () => {
    await addWebhook('whk_a', ['finding.created']);
    for (let index = 0; index < 10; index++) await enqueue(event, NOW - 100 + index);
    await addWebhook('whk_b', ['finding.created']);
    await enqueue();
    const scheduler = new EndpointScheduler({ concurrency: 4, maxPerEndpoint: 8, probeAfterMs: 1000 });
    // 4 slots, a reserve of 1: whk_a's backlog is older, yet whk_b gets its first before whk_a a
    // second, and the last slot stays free for a webhook with nothing in flight.
    expect((await claim(NOW, 4, scheduler)).map((delivery) => delivery.webhookId).sort()).toEqual(['whk_a', 'whk_a', 'whk_b']);
  });

  it('does not claim deliveries that are not due yet', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await enqueue();
    expect(await claim(NOW - 1)).toEqual([]);
    expect(await store.outbox.nextDueAt()).toBe(NOW);
    expect(await store.outbox.nextDueAt(NOW)).toBeNull();
  });

  it('cancels deliveries of webhooks deleted or disabled after the event was queued', async () => {
    await addWebhook('whk_gone', ['finding.created']);
    await addWebhook('whk_off', ['finding.created']);
    await addWebhook('whk_on', ['finding.created']);
    await enqueue();
    await store.webhooks.delete('whk_gone');
    await replace('whk_off', { url: url('whk_off'), events: ['finding.created'], enabled: false }, '2026-11-02T09:00:00Z');
    expect((await claim()).map((delivery) => delivery.webhookId)).toEqual(['whk_on']);
    expect((await store.outbox.listDeliveries('whk_gone'))[0]).toMatchObject({ state: 'cancelled', lastError: 'webhook deleted' });
    expect((await store.outbox.listDeliveries('whk_off'))[0]).toMatchObject({ state: 'cancelled', lastError: 'webhook disabled' });
  });

  it('reads the URL and secret at claim time, with the secret a change replaced', async () => {
    await addWebhook('whk_a', ['finding.created'], { secret: 'whsec_old_secret_0000' });
    await enqueue();
    await replace(
      'whk_a',
      { url: 'http://127.0.0.1:9/new', events: ['finding.created'], secret: 'whsec_new_secret_0000' },
      new Date(NOW).toISOString(),
    );
    expect((await claim())[0]).toMatchObject({
      url: 'http://127.0.0.1:9/new',
      secret: 'whsec_new_secret_0000',
      previousSecret: 'whsec_old_secret_0000',
    });
  });
});

describe('outcomes', () => {
  const setup = async () => {
    await addWebhook('whk_a', ['finding.created']);
    await enqueue();
    return (await claim())[0]!;
  };
  const webhook = async (id: string) => (await store.webhooks.get(id))!;

  it('delivered: finished, last_delivery succeeded', async () => {
    const delivery = await setup();
    expect(await record(delivery, { kind: 'delivered', status: 204 }, NOW + 30)).toEqual({ disabled: null });
    expect((await store.outbox.listDeliveries('whk_a'))[0]).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 204 });
    expect((await webhook('whk_a')).last_delivery).toEqual({ attempted_at: '2026-11-02T09:30:00.030Z', status_code: 204, succeeded: true });
  });

  it('retry: pending again at the given time, the lease released', async () => {
    const delivery = await setup();
    await record(
      delivery,
      { kind: 'retry', status: null, cause: 'connection', error: 'connection failed (ECONNRESET)', dueAt: NOW + 5_000 },
      NOW,
    );
    expect((await store.outbox.listDeliveries('whk_a'))[0]).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastStatus: null,
      lastError: 'connection failed (ECONNRESET)',
    });
    expect(await claim(NOW + 4_999)).toEqual([]);
    expect((await claim(NOW + 5_000))[0]).toMatchObject({ id: delivery.id, attempts: 1, firstAttemptAt: NOW });
    expect((await webhook('whk_a')).last_delivery).toMatchObject({ status_code: null, succeeded: false });
  });

  it('gone: the webhook is disabled with endpoint_gone', async () => {
    const delivery = await setup();
    expect(await record(delivery, { kind: 'gone', status: 410 }, NOW)).toEqual({ disabled: 'endpoint_gone' });
    expect(await webhook('whk_a')).toMatchObject({
      enabled: false,
      disabled_reason: 'endpoint_gone',
      updated_at: '2026-11-02T09:30:00.000Z',
    });
  });

  it('exhausted with nothing delivered during its run: failing; with a success meanwhile: still enabled', async () => {
    const delivery = await setup();
    await record(delivery, { kind: 'exhausted', status: 500, cause: 'http', error: 'HTTP 500' }, NOW);
    expect(await webhook('whk_a')).toMatchObject({ enabled: false, disabled_reason: 'failing' });

    // A second webhook whose other delivery succeeded during the failing one's retries.
    await addWebhook('whk_c', ['scan.completed']);
    const scan: EventOf<'scan.completed'> = {
      event: 'scan.completed',
      timestamp: '2026-11-02T09:30:00Z',
      data: {
        scan_id: 'scn_01jbz3k7q2w9x8v6t5r4p3n2m1',
        device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
        outcome: 'failed',
        started_at: '2026-11-02T09:20:00Z',
        completed_at: '2026-11-02T09:30:00Z',
        new_findings: { info: 0, low: 0, medium: 0, high: 0, critical: 0 },
      },
    };
    await enqueue(scan);
    await enqueue(scan);
    const [failing, succeeding] = (await claim(NOW)).filter((claimed) => claimed.webhookId === 'whk_c');
    await record(failing!, { kind: 'retry', status: 503, cause: 'http', error: 'HTTP 503', dueAt: NOW + 1 }, NOW);
    await record(succeeding!, { kind: 'delivered', status: 200 }, NOW + 10);
    const retried = (await claim(NOW + 100)).find((claimed) => claimed.id === failing!.id)!;
    expect(await record(retried, { kind: 'exhausted', status: 503, cause: 'http', error: 'HTTP 503' }, NOW + 200)).toEqual({
      disabled: null,
    });
    expect(await webhook('whk_c')).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('a batch is recorded in one transaction, each webhook disabled once', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await enqueue();
    await enqueue();
    const [first, second] = await claim();
    const recorded = await store.outbox.record((tx) =>
      recordAttempts(tx, [
        { delivery: first!, outcome: { kind: 'gone', status: 410 }, at: NOW },
        { delivery: second!, outcome: { kind: 'gone', status: 410 }, at: NOW + 1 },
      ]),
    );
    expect(recorded).toEqual([{ disabled: 'endpoint_gone' }, { disabled: null }]);
    expect((await store.outbox.countDeliveries()).gone).toBe(2);
  });

  it("a batch over several webhooks: every outcome recorded, each webhook's last_delivery is its last attempt in the batch", async () => {
    await addWebhook('whk_a', ['finding.created']);
    await addWebhook('whk_b', ['finding.created']);
    await enqueue();
    await enqueue();
    const claimed = await claim();
    const [a1, a2] = claimed.filter((delivery) => delivery.webhookId === 'whk_a');
    const [b1, b2] = claimed.filter((delivery) => delivery.webhookId === 'whk_b');
    const retry = (status: number): AttemptOutcome => ({
      kind: 'retry',
      status,
      cause: 'http',
      error: `HTTP ${status}`,
      dueAt: NOW + 60_000,
    });
    const recorded = await store.outbox.record((tx) =>
      recordAttempts(tx, [
        { delivery: b1!, outcome: retry(503), at: NOW + 1 },
        { delivery: a1!, outcome: { kind: 'delivered', status: 200 }, at: NOW },
        { delivery: b2!, outcome: { kind: 'delivered', status: 204 }, at: NOW + 3 },
        { delivery: a2!, outcome: retry(500), at: NOW + 2 },
      ]),
    );
    expect(recorded).toEqual([{ disabled: null }, { disabled: null }, { disabled: null }, { disabled: null }]);
    expect(await store.outbox.countDeliveries()).toMatchObject({ delivered: 2, pending: 2 });
    expect((await webhook('whk_a')).last_delivery).toEqual({
      attempted_at: new Date(NOW + 2).toISOString(),
      status_code: 500,
      succeeded: false,
    });
    expect((await webhook('whk_b')).last_delivery).toEqual({
      attempted_at: new Date(NOW + 3).toISOString(),
      status_code: 204,
      succeeded: true,
    });
    const retried = await store.outbox.listDeliveries('whk_a');
    expect(retried.find((delivery) => delivery.id === a2!.id)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastStatus: 500,
      dueAt: NOW + 60_000,
    });
  });
});

describe('maintenance', () => {
  it('pruneFinished deletes old finished deliveries and their events, never pending ones', async () => {
    await addWebhook('whk_a', ['finding.created']);
    await enqueue();
    await enqueue();
    const [done] = await claim();
    await record(done!, { kind: 'delivered', status: 200 }, NOW);
    expect(await store.outbox.pruneFinished(NOW + 1)).toBe(1);
    expect(await store.outbox.countDeliveries()).toMatchObject({ delivered: 0, pending: 1 });
    expect(await store.outbox.listEvents()).toHaveLength(1);
  });
});
