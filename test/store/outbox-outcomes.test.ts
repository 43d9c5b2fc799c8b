// The outcome of each delivery attempt on each store (the project decides which,
// test/store/open-store.ts), through the one delivery engine (server/webhooks/outcomes.ts), and
// the pruning of finished deliveries.
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../packages/api/src/events.ts';
import type { Store } from '../../server/store/store.ts';
import { type AttemptOutcome, recordAttempts } from '../../server/webhooks/outcomes.ts';
import { NOW, outboxFixture } from './outbox-fixture.ts';

let store: Store;
const { addWebhook, enqueue, claim, record } = outboxFixture((opened) => (store = opened));

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
