// Idempotency records on each store: they live 24 hours, per API key; a retry inside the window
// finds the first response, and expired records are removed when the next one is stored, so the
// table does not grow forever.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredResponse } from '../../server/store/store.ts';
import { openTestStore, type TestStore } from './open-store.ts';

const response: StoredResponse = { fingerprint: 'f', status: 201, location: '/v1/policies/x', etag: '"e"', body: '{}' };
const t0 = new Date('2026-11-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

let t: TestStore;
beforeEach(async () => {
  t = await openTestStore();
});
afterEach(async () => {
  await t.store.close();
});
const count = async () => Number((await t.sql('SELECT COUNT(*) AS n FROM idempotency_keys'))[0]!.n);

describe('idempotency records', () => {
  it('are found within 24 hours and not after, per API key', async () => {
    const { idempotency } = t.store;
    await idempotency.save('key_a', 'k1', response, t0);
    expect(await idempotency.find('key_a', 'k1', at(23 * 3600_000))).toEqual(response);
    expect(await idempotency.find('key_b', 'k1', t0)).toBeUndefined();
    expect(await idempotency.find('key_a', 'k1', at(24 * 3600_000 + 1))).toBeUndefined();
  });

  it('expired ones are deleted when a new one is stored', async () => {
    const { idempotency } = t.store;
    await idempotency.save('key_a', 'k1', response, t0);
    await idempotency.save('key_a', 'k2', response, at(3600_000));
    expect(await count()).toBe(2);
    await idempotency.save('key_a', 'k3', response, at(24 * 3600_000 + 1));
    expect(await count()).toBe(2); // k1 expired and went; k2 (23 h old) and k3 stay
    expect(await idempotency.find('key_a', 'k2', at(24 * 3600_000 + 1))).toEqual(response);
  });
});
