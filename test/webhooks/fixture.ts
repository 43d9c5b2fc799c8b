// What the webhook suites share: a test server whose dispatcher delivers on a compressed schedule,
// webhooks subscribed through the API, and whatever a test opens (servers, receivers, server
// processes) closed after it, newest first.
import { afterAll, afterEach, expect } from 'vitest';
import type { Config, DeliveryConfig } from '../../server/config.ts';
import type { ServerDeps } from '../../server/server.ts';
import { deliveryWorker } from '../../server/webhooks/dispatcher.ts';
import { startTestServer, type TestServer } from '../server/helpers.ts';

/** Retries a thousand times sooner than in production; a receiver gets 2 s to answer. */
export const FAST_DELIVERY: DeliveryConfig = { retryScale: 0.001, timeoutMs: 2000, concurrency: 16, perWebhookConcurrency: 8 };

interface Opener {
  <T extends { close(): unknown }>(item: T): T;
  <T>(item: T, close: (item: T) => unknown): T;
}

/** Closes what `open` is given after each test (`each`) or after the file (`all`), newest first. */
export function closeAfter(scope: 'each' | 'all'): Opener {
  const closers: (() => unknown)[] = [];
  (scope === 'each' ? afterEach : afterAll)(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return <T>(item: T, close = (opened: T) => (opened as { close(): unknown }).close()) => {
    closers.push(() => close(item));
    return item;
  };
}

type Overrides = Omit<Partial<Config>, 'delivery'> & { delivery?: Partial<DeliveryConfig> };

/** A test server with the delivery worker running (FAST_DELIVERY unless `delivery` says otherwise). */
export function startDeliveringServer({ delivery, ...config }: Overrides = {}, deps: ServerDeps = {}): Promise<TestServer> {
  return startTestServer({ ...config, delivery: { ...FAST_DELIVERY, ...delivery } }, { workers: [deliveryWorker()], ...deps });
}

/** Subscribes a webhook through the API (to finding.created unless `fields` say otherwise); resolves with its id. */
export async function subscribe(server: TestServer, fields: { url: string } & Record<string, unknown>): Promise<string> {
  const response = await server.fetch('/v1/webhooks', { method: 'POST', json: { events: ['finding.created'], ...fields } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()).id;
}
