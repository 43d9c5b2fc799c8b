// Per-endpoint isolation through a real server: ten webhooks whose endpoints accept the
// connection and never answer must not slow the one healthy receiver beside them, and what is
// queued for the dead ones stays pending and is retried on its schedule.
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../packages/api/src/events.ts';
import { startReceiver, type TestReceiver } from '../../scripts/receiver.ts';
import { waitUntil } from '../../scripts/wait.ts';
import type { DeliveryConfig } from '../../server/config.ts';
import { JITTER, RETRY_DELAYS_MS } from '../../server/webhooks/schedule.ts';
import { DEVICE_ID, type TestServer } from '../server/helpers.ts';
import { closeAfter, startDeliveringServer, subscribe } from './fixture.ts';

// A dead endpoint holds a slot for the whole time-out: 1 s is far longer than a healthy delivery
// takes, and the dead endpoints' second attempts (waited for at the end) come a second sooner than with 2 s.
const DELIVERY: DeliveryConfig = { retryScale: 0.001, timeoutMs: 1000, concurrency: 16, perWebhookConcurrency: 8 };
const BLACK_HOLES = 10;
const EVENTS_PER_PHASE = 40;
const PACE_MS = 50;

const open = closeAfter('each');

/** Creates findings one every PACE_MS; resolves with each one's create→receipt latency at `healthy`. */
async function latencies(server: TestServer, healthy: TestReceiver, count: number): Promise<number[]> {
  const sentAt = new Map<string, number>();
  const before = healthy.receipts.length;
  for (let index = 0; index < count; index++) {
    const at = performance.now();
    const response = await server.fetch('/v1/findings', {
      method: 'POST',
      json: { title: `Finding ${index}`, severity: 'low', device_id: DEVICE_ID },
    });
    expect(response.status).toBe(201);
    sentAt.set((await response.json()).id, at);
    await new Promise((resolve) => setTimeout(resolve, PACE_MS));
  }
  const receipts = (await healthy.waitFor(before + count, 20_000)).slice(before);
  return receipts.map((receipt) => {
    const event = parseEvent(receipt.body);
    if (event.event !== 'finding.created') throw new Error(`unexpected ${event.event}`);
    return receipt.at - sentAt.get(event.data.finding_id)!;
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('per-endpoint isolation', () => {
  it(`${BLACK_HOLES} endpoints that never answer: the healthy one receives every event without waiting behind their time-outs`, async () => {
    const t = open(await startDeliveringServer({ delivery: DELIVERY }));
    const healthy = open(await startReceiver(200));
    await subscribe(t, { url: `${healthy.url}/hook` });
    await latencies(t, healthy, 10); // warm-up: JIT, connections
    const baseline = await latencies(t, healthy, EVENTS_PER_PHASE);

    const holes: string[] = [];
    for (let index = 0; index < BLACK_HOLES; index++) {
      const hole = open(await startReceiver('timeout'));
      holes.push(await subscribe(t, { url: `${hole.url}/hook` }));
    }
    const withHoles = await latencies(t, healthy, EVENTS_PER_PHASE);

    expect(withHoles).toHaveLength(EVENTS_PER_PHASE);
    // Had the dead endpoints taken the healthy one's slots, its deliveries would queue behind their
    // time-outs (1 s each) and most would take a second or more. A bound of half the time-out
    // tells the two apart on any machine; how fast isolation is belongs to the benchmarks.
    expect(median(withHoles)).toBeLessThan(DELIVERY.timeoutMs / 2);
    expect(median(baseline)).toBeLessThan(DELIVERY.timeoutMs / 2);
    expect(healthy.receipts.length).toBe(10 + 2 * EVENTS_PER_PHASE);

    // Nothing lost at the dead endpoints: every event stays pending there, each endpoint's first
    // failed delivery is retried, and what was tried waits at least its schedule's delays (less
    // the jitter) since its first attempt.
    const { outbox } = t.server.app.store;
    const retried = async (hole: string) => (await outbox.listDeliveries(hole)).some((delivery) => delivery.attempts >= 2);
    expect(await waitUntil(async () => (await Promise.all(holes.map(retried))).every(Boolean), 20_000)).toBe(true);
    for (const hole of holes) {
      const deliveries = await outbox.listDeliveries(hole);
      expect(deliveries).toHaveLength(EVENTS_PER_PHASE);
      for (const delivery of deliveries) {
        expect(delivery.state).toBe('pending');
        if (delivery.attempts === 0) continue;
        expect(delivery.lastError).toBe(`no answer within ${DELIVERY.timeoutMs} ms`);
        const scheduled = RETRY_DELAYS_MS.slice(0, delivery.attempts).reduce((sum, delay) => sum + delay, 0) * DELIVERY.retryScale;
        expect(delivery.dueAt - delivery.firstAttemptAt!).toBeGreaterThanOrEqual(scheduled * (1 - JITTER));
      }
    }
  }, 60_000);
});
