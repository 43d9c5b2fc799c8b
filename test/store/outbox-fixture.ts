// What the outbox suites share: a store per test (test/store/open-store.ts decides the engine),
// webhooks and an event to queue, and one dispatcher's claims and outcomes through the delivery
// engine (server/webhooks/claim.ts, outcomes.ts).

import { afterEach, beforeEach } from 'vitest';
import type { components } from '../../generated/schema.d.ts';
import type { EventOf, EventType } from '../../packages/api/src/events.ts';
import { newWebhook, replacedWebhook } from '../../packages/core/src/domain/webhooks.ts';
import { publish } from '../../packages/core/src/index.ts';
import type { ClaimedDelivery, Store } from '../../server/store/store.ts';
import { claimDue } from '../../server/webhooks/claim.ts';
import { EndpointScheduler } from '../../server/webhooks/endpoints.ts';
import { type AttemptOutcome, recordAttempts } from '../../server/webhooks/outcomes.ts';
import { openTestStore } from './open-store.ts';

type WebhookUpdate = components['schemas']['WebhookUpdate'];

export const NOW = Date.parse('2026-11-02T09:30:00Z');
export const event: EventOf<'finding.created'> = {
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

export const url = (id: string) => `http://127.0.0.1:9/${id}`;
export const endpoints = (maxPerEndpoint = 100) => new EndpointScheduler({ concurrency: 1000, maxPerEndpoint, probeAfterMs: 1000 });

/** Opens a store before each test (handed to `take`) and closes it after; the helpers act on it. */
export function outboxFixture(take: (store: Store) => void) {
  let store: Store;
  beforeEach(async () => {
    ({ store } = await openTestStore());
    take(store);
  });
  afterEach(() => store.close());

  const addWebhook = async (id: string, events: string[], { enabled = true, secret = null as string | null } = {}) => {
    await store.webhooks.insert(
      newWebhook(id, { url: url(id), events: events as EventType[], enabled, ...(secret ? { secret } : {}) }, '2026-11-01T00:00:00Z'),
    );
  };
  const replace = async (id: string, input: WebhookUpdate, now: string) =>
    store.webhooks.replace(replacedWebhook((await store.webhooks.get(id))!, input, now));
  const enqueue = (body = event as Parameters<Store['outbox']['enqueue']>[0], now = NOW) => publish(store, body, new Date(now));
  // One dispatcher, planning alone: leases of the claims before are its own (the multi-instance
  // planning is tested in postgres/instances.test.ts).
  const claim = (now = NOW, limit = 100, scheduler = endpoints()) =>
    claimDue(store.outbox, { now, limit, leaseMs: 10_000, plan: () => scheduler.plan(now) });
  const record = async (delivery: ClaimedDelivery, outcome: AttemptOutcome, at: number) =>
    (await store.outbox.record((tx) => recordAttempts(tx, [{ delivery, outcome, at }])))[0];
  return { addWebhook, replace, enqueue, claim, record };
}
