// Failed deliveries through a real server and receiver, with the schedule compressed by
// retryScale: retries on the schedule with identical bytes and delivery id, 410 disables,
// 3xx is not followed, Retry-After stretches a wait, and a run that exhausts disables.
import { describe, expect, it } from 'vitest';
import { type EventType, parseEvent } from '../../packages/api/src/events.ts';
import { verifySignature } from '../../packages/api/src/signing.ts';
import { startReceiver, type TestReceiver } from '../../scripts/receiver.ts';
import { sleep, waitUntil } from '../../scripts/wait.ts';
import type { DeliveryConfig } from '../../server/config.ts';
import { JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../server/webhooks/schedule.ts';
import { DEVICE_ID, type TestServer } from '../server/helpers.ts';
import { closeAfter, startDeliveringServer, subscribe } from './fixture.ts';

const SECRET = 'whsec_retry_test_abcdefghijkl';
const TIMEOUT_MS = 400;

const open = closeAfter('each');

async function setup(
  retryScale: number,
  events: EventType[] = ['finding.created'],
): Promise<{ t: TestServer; receiver: TestReceiver; webhookId: string }> {
  const delivery: DeliveryConfig = { retryScale, timeoutMs: TIMEOUT_MS, concurrency: 8, perWebhookConcurrency: 4 };
  const t = open(await startDeliveringServer({ delivery }));
  const receiver = open(await startReceiver());
  return { t, receiver, webhookId: await subscribe(t, { url: `${receiver.url}/hook`, events, secret: SECRET }) };
}

const createFinding = (server: TestServer) =>
  server.fetch('/v1/findings', { method: 'POST', json: { title: 'Disk encryption disabled', severity: 'medium', device_id: DEVICE_ID } });

const webhook = async (server: TestServer, id: string) => (await server.fetch(`/v1/webhooks/${id}`)).json();

describe('retries', () => {
  it('500, time-out, reset, then 200: four attempts on the schedule, identical bytes and delivery id', async () => {
    const scale = 0.001;
    const { t, receiver, webhookId } = await setup(scale);
    receiver.script(500, 'timeout', 'reset', 200);
    expect((await createFinding(t)).status).toBe(201);
    const receipts = await receiver.waitFor(4, 15_000);
    await sleep(300);
    expect(receipts).toHaveLength(4);

    const [first] = receipts;
    for (const receipt of receipts) {
      expect(receipt.body.equals(first!.body)).toBe(true);
      expect(receipt.headers['x-service-delivery']).toBe(first!.headers['x-service-delivery']);
      expect(receipt.headers['x-service-signature']).toBe(first!.headers['x-service-signature']);
      expect(verifySignature(receipt.body, receipt.headers['x-service-signature'], SECRET)).toBe(true);
    }
    expect(parseEvent(first!.body).event).toBe('finding.created');

    // Gap between attempt n and n+1 is the n-th delay (±20 %), plus the time-out when attempt n timed out.
    const gaps = receipts.slice(1).map((receipt, index) => receipt.at - receipts[index]!.at);
    const expected = [RETRY_DELAYS_MS[0]! * scale, TIMEOUT_MS + RETRY_DELAYS_MS[1]! * scale, RETRY_DELAYS_MS[2]! * scale];
    gaps.forEach((gap, index) => {
      const delay = expected[index]!;
      expect(gap, `gap ${index + 1}`).toBeGreaterThanOrEqual(delay * (1 - JITTER) - 5);
      expect(gap, `gap ${index + 1}`).toBeLessThanOrEqual(delay * (1 + JITTER) + TIMEOUT_MS + 250);
    });
    expect(gaps[2]).toBeGreaterThan(RETRY_DELAYS_MS[2]! * scale * (1 - JITTER) - 5);

    await waitUntil(async () => (await t.server.app.store.outbox.listDeliveries(webhookId))[0]?.state === 'delivered');
    const [row] = await t.server.app.store.outbox.listDeliveries(webhookId);
    expect(row).toMatchObject({ state: 'delivered', attempts: 4, lastStatus: 200 });
    expect(await webhook(t, webhookId)).toMatchObject({
      enabled: true,
      disabled_reason: null,
      last_delivery: { status_code: 200, succeeded: true },
    });
  });

  it('410 disables the webhook at once (endpoint_gone); later events are not sent', async () => {
    const { t, receiver, webhookId } = await setup(0.001);
    receiver.script(410);
    expect((await createFinding(t)).status).toBe(201);
    await receiver.waitFor(1);
    await waitUntil(async () => (await webhook(t, webhookId)).enabled === false);
    const after = await webhook(t, webhookId);
    expect(after).toMatchObject({
      enabled: false,
      disabled_reason: 'endpoint_gone',
      last_delivery: { status_code: 410, succeeded: false },
    });
    expect((await t.server.app.store.outbox.listDeliveries(webhookId))[0]).toMatchObject({ state: 'gone', attempts: 1 });

    expect((await createFinding(t)).status).toBe(201);
    await sleep(300);
    expect(receiver.receipts).toHaveLength(1);
  });

  it('a 3xx is a failed attempt and its Location is never requested', async () => {
    const { t, receiver, webhookId } = await setup(0.001);
    receiver.script({ status: 302, headers: { location: '/elsewhere' } }, { status: 307, headers: { location: '/elsewhere' } }, 200);
    expect((await createFinding(t)).status).toBe(201);
    const receipts = await receiver.waitFor(3);
    await sleep(200);
    expect(receipts.map((receipt) => receipt.path)).toEqual(['/hook', '/hook', '/hook']);
    await waitUntil(async () => (await t.server.app.store.outbox.listDeliveries(webhookId))[0]?.state === 'delivered');
    const row = (await t.server.app.store.outbox.listDeliveries(webhookId))[0]!;
    expect(row).toMatchObject({ state: 'delivered', attempts: 3 });
  });

  it('honours a longer Retry-After (scaled like the schedule)', async () => {
    const scale = 0.0002;
    const { t, receiver } = await setup(scale);
    // 1000 s at scale 0.0002 is 200 ms, far longer than the scheduled 5 s × 0.0002 (1 ms).
    receiver.script({ status: 503, headers: { 'retry-after': '1000' } }, 200);
    expect((await createFinding(t)).status).toBe(201);
    const receipts = await receiver.waitFor(2, 5000);
    expect(receipts[1]!.at - receipts[0]!.at).toBeGreaterThanOrEqual(1000 * 1000 * scale - 5);
  });

  it('a delivery that exhausts the schedule is failed and, with no success meanwhile, disables the webhook (failing)', async () => {
    const scale = 0.000004; // three days in about a second
    const { t, receiver, webhookId } = await setup(scale);
    receiver.script(...Array<number>(MAX_ATTEMPTS).fill(500));
    expect((await createFinding(t)).status).toBe(201);
    await receiver.waitFor(MAX_ATTEMPTS, 20_000);
    await sleep(300);
    expect(receiver.receipts).toHaveLength(MAX_ATTEMPTS);
    await waitUntil(async () => (await t.server.app.store.outbox.listDeliveries(webhookId))[0]?.state === 'failed');
    expect((await t.server.app.store.outbox.listDeliveries(webhookId))[0]).toMatchObject({
      state: 'failed',
      attempts: MAX_ATTEMPTS,
      lastStatus: 500,
    });
    expect(await webhook(t, webhookId)).toMatchObject({
      enabled: false,
      disabled_reason: 'failing',
      last_delivery: { status_code: 500, succeeded: false },
    });
  });

  it('a due retry takes the webhook’s next free slot ahead of its backlog of new deliveries', async () => {
    const scale = 0.06; // the first wait is 300 ms (±20 %)
    const delivery: DeliveryConfig = { retryScale: scale, timeoutMs: 2000, concurrency: 8, perWebhookConcurrency: 1 };
    const t = open(await startDeliveringServer({ delivery }));
    // A slow receiver: one slot, 150 ms an answer, so twenty new deliveries queue for three seconds.
    const receiver = open(await startReceiver({ status: 200, delayMs: 150 }));
    await subscribe(t, { url: `${receiver.url}/hook`, events: ['finding.created'], secret: SECRET });
    receiver.script(500);
    for (let i = 0; i < 21; i++) expect((await createFinding(t)).status).toBe(201);
    await receiver.waitFor(22, 15_000);
    const first = receiver.receipts[0]!;
    const retry = receiver.receipts.slice(1).find((r) => r.headers['x-service-delivery'] === first.headers['x-service-delivery'])!;
    // Counted in deliveries, not milliseconds, so a loaded machine cannot fail it: the wait (at most
    // 360 ms) lets about three new deliveries through at 150 ms each, and one holds the slot when the
    // retry falls due; behind the backlog it would come after all twenty.
    const waitMs = RETRY_DELAYS_MS[0]! * scale * (1 + JITTER);
    expect(receiver.receipts.indexOf(retry)).toBeLessThan(Math.ceil(waitMs / 150) + 6);
    expect(retry.at - first.at).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]! * scale * (1 - JITTER));
  });
});
