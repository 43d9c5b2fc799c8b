// Deliveries per second (bench/instances.ts and `npm run bench`): a burst of events to a few
// webhooks on a local receiver, the findings created round-robin over the instances by 16 clients;
// counted until the last delivery is received.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DELIVERY_KEY = 'bench-instances-key-0123';
const HEADERS = { authorization: `Bearer ${DELIVERY_KEY}`, 'content-type': 'application/json' };
const DEVICE = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2';
const DRAIN_TIMEOUT_MS = 120_000;

export interface DeliveryRate {
  events: number;
  webhooks: number;
  perSecond: number;
  /** Deliveries not received within the time-out. */
  missing: number;
}

export async function deliveryRate(urls: string[], events: number, webhooks: number): Promise<DeliveryRate> {
  const received = new Set<string>();
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  const expected = events * webhooks;
  const receiver = createServer((req, res) => {
    const id = String(req.headers['x-service-delivery']);
    req.resume();
    req.on('end', () => {
      res.end();
      received.add(id);
      if (received.size === expected) done();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const port = (receiver.address() as AddressInfo).port;
  try {
    for (let index = 0; index < webhooks; index++) {
      await post(urls[0]!, '/v1/webhooks', { url: `http://127.0.0.1:${port}/hook-${index}`, events: ['finding.created'] });
    }
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, client) => {
        for (let index = client; index < events; index += 16) {
          await post(urls[next++ % urls.length]!, '/v1/findings', { title: `Finding ${index}`, severity: 'low', device_id: DEVICE });
        }
      }),
    );
    // Progress, and how much of the time the creates themselves took (the engine writes them too).
    process.stderr.write(
      `bench: ${events} findings created in ${((performance.now() - started) / 1000).toFixed(2)} s, ${received.size} deliveries received so far\n`,
    );
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), DRAIN_TIMEOUT_MS).unref());
    const outcome = await Promise.race([all, timeout]);
    const seconds = (performance.now() - started) / 1000;
    return { events, webhooks, perSecond: received.size / seconds, missing: outcome === 'timeout' ? expected - received.size : 0 };
  } finally {
    receiver.close();
  }
}

export async function post(url: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(url + path, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status}`);
}
