// The outbox on each store (the project decides which, test/store/open-store.ts): transactional
// enqueue, subscriber selection, leases, per-webhook limits and cancellation, through the one
// delivery engine (server/webhooks/claim.ts). Outcomes and pruning: outbox-outcomes.test.ts.

import { describe, expect, it } from 'vitest';
import { publish } from '../../packages/core/src/index.ts';
import { serializeEvent } from '../../server/store/event-body.ts';
import type { ClaimedDelivery, Store } from '../../server/store/store.ts';
import { EndpointScheduler } from '../../server/webhooks/endpoints.ts';
import { endpoints, event, NOW, outboxFixture, url } from './outbox-fixture.ts';

let store: Store;
const { addWebhook, replace, enqueue, claim } = outboxFixture((opened) => (store = opened));

describe('enqueue', () => {
  it('queues one delivery per enabled subscribed webhook, with its own UUID and the body serialised once', async () => {
    await addWebhook('whk_a', ['finding.created', 'scan.completed']);
    await addWebhook('whk_b', ['finding.created']);
    await addWebhook('whk_other', ['scan.completed']);
    await addWebhook('whk_off', ['finding.created'], { enabled: false });
    expect(await store.transaction((tx) => publish(tx, event, new Date(NOW)))).toBe(2);

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
        await publish(tx, event, new Date(NOW));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await store.outbox.listEvents()).toEqual([]);
    expect((await store.outbox.countDeliveries()).pending).toBe(0);
  });

  it('refuses a body its webhook schema does not allow, writing nothing', async () => {
    await addWebhook('whk_a', ['finding.created']);
    const bad = { ...event, data: { ...event.data, severity: 'apocalyptic' } } as unknown as typeof event;
    await expect(store.outbox.enqueue(bad, ['whk_a'], new Date(NOW))).rejects.toThrow(/invalid finding\.created event.*severity/);
    expect((await store.outbox.countDeliveries()).pending).toBe(0);
  });

  it('stores a delivery for exactly the recipients it is given, deciding nothing (a disabled or unsubscribed webhook too)', async () => {
    await addWebhook('whk_off', ['finding.created'], { enabled: false });
    await addWebhook('whk_other', ['scan.completed']);
    expect(await store.outbox.enqueue(event, ['whk_off', 'whk_other'], new Date(NOW))).toBe(2);
    expect((await store.outbox.listDeliveries('whk_off')).length).toBe(1);
    expect((await store.outbox.listDeliveries('whk_other')).length).toBe(1);
    expect(await store.outbox.enqueue(event, [], new Date(NOW))).toBe(0);
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
    expect(await publish(store, event, new Date(NOW), 'whk_b')).toBe(1);
    expect(await publish(store, event, new Date(NOW), 'whk_none')).toBe(0);
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
