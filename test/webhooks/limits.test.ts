// The dispatcher's bounds: attempts in flight overall and per webhook, how much of an answer it
// reads, and what it never writes to the log.
import { describe, expect, it } from 'vitest';
import { type Answer, startReceiver, type TestReceiver } from '../../scripts/receiver.ts';
import { waitUntil } from '../../scripts/wait.ts';
import type { DeliveryConfig } from '../../server/config.ts';
import { DEVICE_ID, type TestServer } from '../server/helpers.ts';
import { closeAfter, startDeliveringServer, subscribe } from './fixture.ts';

const SECRET = 'whsec_limits_test_never_logged_77';

const open = closeAfter('each');
const serve = async (delivery: Partial<DeliveryConfig>) =>
  open(await startDeliveringServer({ delivery: { timeoutMs: 5000, ...delivery } }));
const receiver = async (answer: Answer) => open(await startReceiver(answer));
const signedTo = (server: TestServer, receiver: TestReceiver) => subscribe(server, { url: `${receiver.url}/hook`, secret: SECRET });

const createFindings = (server: TestServer, count: number) =>
  Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await server.fetch('/v1/findings', {
        method: 'POST',
        json: { title: `Finding ${index}`, severity: 'low', device_id: DEVICE_ID },
      });
      expect(response.status).toBe(201);
    }),
  );

describe('dispatcher limits', () => {
  it('keeps at most perWebhookConcurrency attempts open to each receiver, and uses them', async () => {
    const server = await serve({ concurrency: 16, perWebhookConcurrency: 3 });
    const slow = { status: 200, delayMs: 80 } as const;
    const [a, b] = [await receiver(slow), await receiver(slow)];
    await signedTo(server, a);
    await signedTo(server, b);
    await createFindings(server, 15);
    await Promise.all([a.waitFor(15), b.waitFor(15)]);
    expect(a.maxConcurrent()).toBe(3);
    expect(b.maxConcurrent()).toBe(3);
  });

  it('never runs more than concurrency attempts at once over many webhooks', async () => {
    const server = await serve({ concurrency: 4, perWebhookConcurrency: 4 });
    // One receiver behind several webhooks: its open-request count is the dispatcher's total.
    const shared = await receiver({ status: 200, delayMs: 60 });
    for (let index = 0; index < 4; index++) await signedTo(server, shared);
    await createFindings(server, 6);
    await shared.waitFor(24);
    expect(shared.maxConcurrent()).toBe(4);
  });

  it('reads only the start of an oversized answer and still counts the 2xx', async () => {
    const server = await serve({});
    const chatty = await receiver({ status: 200, bodyBytes: 50 * 1024 * 1024 });
    const id = await signedTo(server, chatty);
    await createFindings(server, 1);
    await chatty.waitFor(1);
    await waitUntil(async () => (await server.server.app.store.outbox.listDeliveries(id))[0]?.state === 'delivered');
    expect((await server.server.app.store.outbox.listDeliveries(id))[0]).toMatchObject({
      state: 'delivered',
      attempts: 1,
      lastStatus: 200,
    });
  });

  it('logs deliveries without the secret or the URL', async () => {
    const server = await serve({});
    const failing = await receiver(500);
    await signedTo(server, failing);
    await createFindings(server, 2);
    await failing.waitFor(4);
    const logs = server.logs.join('\n');
    expect(logs).toMatch(/webhook delivery failed; will retry/);
    expect(logs).not.toContain(SECRET);
    expect(logs).not.toContain(`${failing.url}/hook`);
  });
});
