// Connections of the PostgreSQL store ended under it (pg_terminate_backend, as a restart or a
// failover does): the one a transaction holds, the pooled ones and the LISTEN connection. An
// 'error' event without a listener would end this test process; instead the transaction fails
// with a fault the server answers 503, and the store goes on: new connections, LISTEN again.

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newWebhook } from '../../../packages/core/src/domain/webhooks.ts';
import { publish } from '../../../packages/core/src/index.ts';
import { waitUntil } from '../../../scripts/wait.ts';
import { classifyDatabaseError } from '../../../server/store/faults.ts';
import type { Store } from '../../../server/store/store.ts';
import { twoInstancesPerTest } from '../../support/postgres.ts';

let database: string;
let store: Store;
let other: Store;
twoInstancesPerTest((...opened) => ([database, store, other] = opened));

/** Ends every other session on the test database; resolves with how many. */
async function terminateSessions(): Promise<number> {
  const admin = new pg.Client(database);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

const WEBHOOK = { url: 'https://receiver.example.com/hook', events: ['finding.created' as const] };
const EVENT = {
  event: 'finding.created' as const,
  timestamp: '2026-11-02T09:30:00Z',
  data: {
    finding_id: 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
    severity: 'high' as const,
    title: 'SSH root login enabled',
    device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
    policy_id: null,
  },
};

describe('PostgreSQL connections ended under the store', () => {
  it('fails the transaction holding one with a 503 fault, and serves again on new connections', async () => {
    let wakes = 0;
    store.outbox.onEnqueue(() => wakes++);
    expect(await waitUntil(() => wakes > 0)).toBe(true);

    let ended = 0;
    const held = store.transaction(async (tx) => {
      await tx.webhooks.list({}, undefined, 20);
      // The connection this transaction holds (and every other) ends here.
      ended = await terminateSessions();
      await tx.webhooks.list({}, undefined, 20);
    });
    const failure = await held.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(ended).toBeGreaterThanOrEqual(2);
    expect(classifyDatabaseError(failure)).toMatchObject({ kind: 'unavailable' });

    // The pool replaces what it lost; the LISTEN connection comes back and is woken again.
    await store.webhooks.insert(newWebhook('whk_01jbz4a5b6c7d8e9f0g1h2j3k4', WEBHOOK, '2026-11-02T09:00:00Z'));
    expect(await store.webhooks.get('whk_01jbz4a5b6c7d8e9f0g1h2j3k4')).toMatchObject({ url: WEBHOOK.url });
    // LISTEN reconnects after a short pause; once it has, a commit elsewhere wakes this store.
    const listening = async () => {
      const admin = new pg.Client(database);
      await admin.connect();
      try {
        const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'");
        return rows.length >= 1;
      } finally {
        await admin.end();
      }
    };
    expect(await waitUntil(listening, 10_000)).toBe(true);
    wakes = 0;
    expect(await publish(other, EVENT, new Date())).toBe(1);
    expect(await waitUntil(() => wakes > 0, 5000)).toBe(true);
  });
});
