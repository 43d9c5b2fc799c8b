// Idempotency records live 24 hours: a retry inside the window finds the first response, and
// expired records are removed when the next one is stored, so the table does not grow forever.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/store/sqlite/database.ts';
import { findStoredResponse, storeResponse } from '../../server/store/sqlite/idempotency.ts';
import type { StoredResponse } from '../../server/store/store.ts';

const response: StoredResponse = { fingerprint: 'f', status: 201, location: '/v1/policies/x', etag: '"e"', body: '{}' };
const count = (db: ReturnType<typeof openDatabase>) => (db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number }).n;

describe('idempotency records', () => {
  it('are found within 24 hours and not after', () => {
    const db = openDatabase(':memory:');
    const t0 = new Date('2026-11-01T00:00:00Z');
    storeResponse(db, 'key_a', 'k1', response, t0);
    expect(findStoredResponse(db, 'key_a', 'k1', new Date(t0.getTime() + 23 * 3600_000))).toEqual(response);
    expect(findStoredResponse(db, 'key_b', 'k1', t0)).toBeUndefined();
    expect(findStoredResponse(db, 'key_a', 'k1', new Date(t0.getTime() + 24 * 3600_000 + 1))).toBeUndefined();
    db.close();
  });

  it('expired ones are deleted when a new one is stored', () => {
    const db = openDatabase(':memory:');
    const t0 = new Date('2026-11-01T00:00:00Z');
    storeResponse(db, 'key_a', 'k1', response, t0);
    storeResponse(db, 'key_a', 'k2', response, new Date(t0.getTime() + 3600_000));
    expect(count(db)).toBe(2);
    storeResponse(db, 'key_a', 'k3', response, new Date(t0.getTime() + 24 * 3600_000 + 1));
    expect(count(db)).toBe(2); // k1 expired and went; k2 (23 h old) and k3 stay
    expect(findStoredResponse(db, 'key_a', 'k2', new Date(t0.getTime() + 24 * 3600_000 + 1))).toEqual(response);
    db.close();
  });
});
