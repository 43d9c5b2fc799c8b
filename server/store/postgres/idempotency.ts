// Stored first responses of creates made with an Idempotency-Key, per API key, kept 24 hours.
import { IDEMPOTENCY_TTL_MS, type StoredResponse } from '../store.ts';
import type { Db } from './queries.ts';

const cutoff = (now: Date) => new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();

export async function findStoredResponse(db: Db, owner: string, key: string, now: Date): Promise<StoredResponse | undefined> {
  const { rows } = await db.query<StoredResponse>(
    'SELECT fingerprint, status, location, etag, body FROM idempotency_keys WHERE owner = $1 AND key = $2 AND created_at > $3',
    [owner, key, cutoff(now)],
  );
  return rows[0];
}

/** Stores a first response; expired records go at the same time, so storage stays bounded to a day of keys. */
export async function storeResponse(db: Db, owner: string, key: string, response: StoredResponse, now: Date): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE created_at <= $1', [cutoff(now)]);
  await db.query(
    `INSERT INTO idempotency_keys (owner, key, fingerprint, status, location, etag, body, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (owner, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
       location = excluded.location, etag = excluded.etag, body = excluded.body, created_at = excluded.created_at`,
    [owner, key, response.fingerprint, response.status, response.location, response.etag, response.body, now.toISOString()],
  );
}
