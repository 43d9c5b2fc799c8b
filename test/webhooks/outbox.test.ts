// The outbox on a real in-memory database: transactional enqueue, subscriber selection, leases,
// per-webhook limits, cancellation and the outcome of each attempt.
import type { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../lib/events.ts';
import { openDatabase, transaction } from '../../server/store/sqlite/database.ts';
import {
  claimDueDeliveries,
  countDeliveries,
  enqueueEvent,
  listDeliveries,
  listEvents,
  migrateOutbox,
  nextDueAt,
  pruneFinished,
  recordAttempt,
  releaseAllLeases,
} from '../../server/store/sqlite/outbox.ts';
import { serializeEvent } from '../../server/store/event-body.ts';
import type { ClaimedDelivery } from '../../server/store/store.ts';
import { EndpointScheduler } from '../../server/webhooks/endpoints.ts';

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

let db: DatabaseSync;
beforeEach(() => {
  db = openDatabase(':memory:');
});

function addWebhook(id: string, events: string[], { enabled = true, secret = null as string | null } = {}): void {
  db.prepare(
    `INSERT INTO webhooks (id, url, events, secret, description, enabled, disabled_reason, last_delivery, created_at, updated_at)
     VALUES (?, ?, ?, ?, '', ?, NULL, NULL, '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')`,
  ).run(id, `http://127.0.0.1:9/${id}`, JSON.stringify(events), secret, enabled ? 1 : 0);
}

const webhookRow = (id: string) =>
  db.prepare('SELECT enabled, disabled_reason, last_delivery, updated_at FROM webhooks WHERE id = ?').get(id) as {
    enabled: number;
    disabled_reason: string | null;
    last_delivery: string | null;
    updated_at: string;
  };

const endpoints = (maxPerEndpoint = 100) => new EndpointScheduler({ concurrency: 1000, maxPerEndpoint, probeAfterMs: 1000 });
const claim = (now = NOW, limit = 100, scheduler = endpoints()) =>
  claimDueDeliveries(db, { now, limit, leaseMs: 10_000, plan: scheduler.plan(now) });

describe('enqueueEvent', () => {
  it('queues one delivery per enabled subscribed webhook, with its own UUID and the body serialised once', () => {
    addWebhook('whk_a', ['finding.created', 'scan.completed']);
    addWebhook('whk_b', ['finding.created']);
    addWebhook('whk_other', ['scan.completed']);
    addWebhook('whk_off', ['finding.created'], { enabled: false });
    expect(transaction(db, () => enqueueEvent(db, event, new Date(NOW)))).toBe(2);

    const claimed = claim();
    expect(claimed.map((delivery) => delivery.webhookId).sort()).toEqual(['whk_a', 'whk_b']);
    expect(new Set(claimed.map((delivery) => delivery.id)).size).toBe(2);
    for (const delivery of claimed) {
      expect(delivery.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(delivery.body).toBe(JSON.stringify(event));
      expect(delivery.eventType).toBe('finding.created');
    }
    expect(listEvents(db)).toEqual([event]);
  });

  it('writes nothing when the surrounding transaction rolls back', () => {
    addWebhook('whk_a', ['finding.created']);
    expect(() =>
      transaction(db, () => {
        enqueueEvent(db, event);
        throw new Error('the change failed');
      }),
    ).toThrow('the change failed');
    expect(listEvents(db)).toEqual([]);
    expect(countDeliveries(db).pending).toBe(0);
  });

  it('refuses a body its webhook schema does not allow, writing nothing', () => {
    addWebhook('whk_a', ['finding.created']);
    const bad = { ...event, data: { ...event.data, severity: 'apocalyptic' } } as unknown as typeof event;
    expect(() => enqueueEvent(db, bad)).toThrow(/invalid finding\.created event.*severity/);
    expect(countDeliveries(db).pending).toBe(0);
  });

  it('caps the serialised size', () => {
    const size = Buffer.byteLength(JSON.stringify(event));
    expect(serializeEvent(event, size)).toBe(JSON.stringify(event));
    expect(() => serializeEvent(event, size - 1)).toThrow(`refusing to queue a finding.created event of ${size} bytes (cap ${size - 1})`);
  });

  it('stores no event when nobody subscribes', () => {
    addWebhook('whk_other', ['scan.completed']);
    expect(enqueueEvent(db, event)).toBe(0);
    expect(listEvents(db)).toEqual([]);
  });
});

describe('claimDueDeliveries', () => {
  it('leases: a claimed delivery is not claimed again until its lease runs out or leases are released', () => {
    addWebhook('whk_a', ['finding.created']);
    enqueueEvent(db, event, new Date(NOW));
    const [first] = claim();
    expect(first).toBeDefined();
    expect(claim(NOW + 5_000)).toEqual([]);
    // The process died mid-attempt: once the lease expires the same delivery is due again.
    expect(claim(NOW + 10_001).map((delivery) => delivery.id)).toEqual([first!.id]);
    expect(releaseAllLeases(db, NOW + 10_002)).toBe(1);
    expect(claim(NOW + 10_002).map((delivery) => delivery.id)).toEqual([first!.id]);
  });

  it('keeps each webhook under its concurrency limit, counting attempts already in flight', () => {
    addWebhook('whk_a', ['finding.created']);
    addWebhook('whk_b', ['finding.created']);
    for (let index = 0; index < 5; index++) enqueueEvent(db, event, new Date(NOW));
    const scheduler = endpoints(2);
    scheduler.started('whk_a');
    const first = claim(NOW, 100, scheduler);
    const count = (list: ClaimedDelivery[], id: string) => list.filter((delivery) => delivery.webhookId === id).length;
    expect(count(first, 'whk_a')).toBe(1);
    expect(count(first, 'whk_b')).toBe(2);
    expect(claim(NOW, 1)).toHaveLength(1);
  });

  it("finds a webhook's delivery behind another webhook's older backlog that cannot be sent now", () => {
    addWebhook('whk_backlog', ['finding.created']);
    for (let index = 0; index < 50; index++) enqueueEvent(db, event, new Date(NOW - 1000 + index));
    addWebhook('whk_b', ['finding.created']);
    enqueueEvent(db, event, new Date(NOW));
    const scheduler = endpoints(1);
    scheduler.started('whk_backlog');
    // The plan's blocked list leaves the backlog out of the query.
    expect(claim(NOW, 2, scheduler).map((delivery) => delivery.webhookId)).toEqual(['whk_b']);
    // Not blocked up front, the backlog fills the first window; once passed over it is left out.
    expect(claim(NOW, 2, endpoints(1)).map((delivery) => delivery.webhookId)).toEqual(['whk_backlog']);
    enqueueEvent(db, event, new Date(NOW));
    expect(claim(NOW, 2, endpoints(1)).map((delivery) => delivery.webhookId)).toEqual(['whk_backlog', 'whk_b']);
  });

  it('gives every webhook its first attempt before any webhook a second', () => {
    addWebhook('whk_a', ['finding.created']);
    for (let index = 0; index < 10; index++) enqueueEvent(db, event, new Date(NOW - 100 + index));
    addWebhook('whk_b', ['finding.created']);
    enqueueEvent(db, event, new Date(NOW));
    const scheduler = new EndpointScheduler({ concurrency: 4, maxPerEndpoint: 8, probeAfterMs: 1000 });
    // 4 slots, a reserve of 1: whk_a's backlog is older, yet whk_b gets its first before whk_a a
    // second, and the last slot stays free for a webhook with nothing in flight.
    expect(claim(NOW, 4, scheduler).map((delivery) => delivery.webhookId).sort()).toEqual(['whk_a', 'whk_a', 'whk_b']);
  });

  it('does not claim deliveries that are not due yet', () => {
    addWebhook('whk_a', ['finding.created']);
    enqueueEvent(db, event, new Date(NOW));
    expect(claim(NOW - 1)).toEqual([]);
    expect(nextDueAt(db)).toBe(NOW);
  });

  it('cancels deliveries of webhooks deleted or disabled after the event was queued', () => {
    addWebhook('whk_gone', ['finding.created']);
    addWebhook('whk_off', ['finding.created']);
    addWebhook('whk_on', ['finding.created']);
    enqueueEvent(db, event, new Date(NOW));
    db.prepare("DELETE FROM webhooks WHERE id = 'whk_gone'").run();
    db.prepare("UPDATE webhooks SET enabled = 0 WHERE id = 'whk_off'").run();
    expect(claim().map((delivery) => delivery.webhookId)).toEqual(['whk_on']);
    expect(listDeliveries(db, 'whk_gone')[0]).toMatchObject({ state: 'cancelled', lastError: 'webhook deleted' });
    expect(listDeliveries(db, 'whk_off')[0]).toMatchObject({ state: 'cancelled', lastError: 'webhook disabled' });
  });

  it('reads the URL and secret at claim time', () => {
    addWebhook('whk_a', ['finding.created'], { secret: 'whsec_old_secret_0000' });
    enqueueEvent(db, event, new Date(NOW));
    db.prepare("UPDATE webhooks SET url = 'http://127.0.0.1:9/new', secret = 'whsec_new_secret_0000' WHERE id = 'whk_a'").run();
    expect(claim()[0]).toMatchObject({ url: 'http://127.0.0.1:9/new', secret: 'whsec_new_secret_0000' });
  });
});

describe('recordAttempt', () => {
  const setup = () => {
    addWebhook('whk_a', ['finding.created']);
    enqueueEvent(db, event, new Date(NOW));
    return claim()[0]!;
  };

  it('delivered: finished, last_delivery succeeded', () => {
    const delivery = setup();
    expect(recordAttempt(db, delivery, { kind: 'delivered', status: 204 }, NOW + 30)).toEqual({ disabled: null });
    expect(listDeliveries(db, 'whk_a')[0]).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 204 });
    expect(JSON.parse(webhookRow('whk_a').last_delivery!)).toEqual({ attempted_at: '2026-11-02T09:30:00.030Z', status_code: 204, succeeded: true });
  });

  it('retry: pending again at the given time, the lease released', () => {
    const delivery = setup();
    recordAttempt(db, delivery, { kind: 'retry', status: null, error: 'connection failed (ECONNRESET)', dueAt: NOW + 5_000 }, NOW);
    expect(listDeliveries(db, 'whk_a')[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null, lastError: 'connection failed (ECONNRESET)' });
    expect(claim(NOW + 4_999)).toEqual([]);
    expect(claim(NOW + 5_000)[0]).toMatchObject({ id: delivery.id, attempts: 1, firstAttemptAt: NOW });
    expect(JSON.parse(webhookRow('whk_a').last_delivery!)).toMatchObject({ status_code: null, succeeded: false });
  });

  it('gone: the webhook is disabled with endpoint_gone', () => {
    const delivery = setup();
    expect(recordAttempt(db, delivery, { kind: 'gone', status: 410 }, NOW)).toEqual({ disabled: 'endpoint_gone' });
    expect(webhookRow('whk_a')).toMatchObject({ enabled: 0, disabled_reason: 'endpoint_gone', updated_at: '2026-11-02T09:30:00.000Z' });
  });

  it('exhausted with nothing delivered during its run: failing; with a success meanwhile: still enabled', () => {
    const delivery = setup();
    recordAttempt(db, delivery, { kind: 'exhausted', status: 500, error: 'HTTP 500' }, NOW);
    expect(webhookRow('whk_a')).toMatchObject({ enabled: 0, disabled_reason: 'failing' });

    // A second webhook whose other delivery succeeded during the failing one's retries.
    addWebhook('whk_c', ['scan.completed']);
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
    enqueueEvent(db, scan, new Date(NOW));
    enqueueEvent(db, scan, new Date(NOW));
    const [failing, succeeding] = claim(NOW).filter((claimed) => claimed.webhookId === 'whk_c');
    recordAttempt(db, failing!, { kind: 'retry', status: 503, error: 'HTTP 503', dueAt: NOW + 1 }, NOW);
    recordAttempt(db, succeeding!, { kind: 'delivered', status: 200 }, NOW + 10);
    const retried = claim(NOW + 100).find((claimed) => claimed.id === failing!.id)!;
    expect(recordAttempt(db, retried, { kind: 'exhausted', status: 503, error: 'HTTP 503' }, NOW + 200)).toEqual({ disabled: null });
    expect(webhookRow('whk_c')).toMatchObject({ enabled: 1, disabled_reason: null });
  });
});

describe('maintenance', () => {
  it('migrateOutbox is idempotent', () => {
    addWebhook('whk_a', ['finding.created']);
    enqueueEvent(db, event);
    migrateOutbox(db);
    migrateOutbox(db);
    expect(countDeliveries(db).pending).toBe(1);
  });

  it('pruneFinished deletes old finished deliveries and their events, never pending ones', () => {
    addWebhook('whk_a', ['finding.created']);
    enqueueEvent(db, event, new Date(NOW));
    enqueueEvent(db, event, new Date(NOW));
    const [done] = claim();
    recordAttempt(db, done!, { kind: 'delivered', status: 200 }, NOW);
    expect(pruneFinished(db, NOW + 1)).toBe(1);
    expect(countDeliveries(db)).toMatchObject({ delivered: 0, pending: 1 });
    expect(listEvents(db)).toHaveLength(1);
  });
});
