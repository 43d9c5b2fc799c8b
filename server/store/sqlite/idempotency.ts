// Stored first responses of creates made with an Idempotency-Key, per API key, kept 24 hours.
import type { DatabaseSync } from 'node:sqlite';
import { IDEMPOTENCY_TTL_MS, type StoredResponse } from '../store.ts';
import { type Row, statement } from './statements.ts';

export function findStoredResponse(db: DatabaseSync, owner: string, key: string, now: Date): StoredResponse | undefined {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const row = statement(
    db,
    'SELECT fingerprint, status, location, etag, body FROM idempotency_keys WHERE owner = ? AND key = ? AND created_at > ?',
  ).get(owner, key, cutoff) as Row | undefined;
  return row && (row as unknown as StoredResponse);
}

/** Stores a first response; expired records go at the same time, so storage stays bounded to a day of keys. */
export function storeResponse(db: DatabaseSync, owner: string, key: string, response: StoredResponse, now: Date): void {
  statement(db, 'DELETE FROM idempotency_keys WHERE created_at <= ?').run(new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString());
  statement(
    db,
    `INSERT INTO idempotency_keys (owner, key, fingerprint, status, location, etag, body, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (owner, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
       location = excluded.location, etag = excluded.etag, body = excluded.body, created_at = excluded.created_at`,
  ).run(owner, key, response.fingerprint, response.status, response.location, response.etag, response.body, now.toISOString());
}
