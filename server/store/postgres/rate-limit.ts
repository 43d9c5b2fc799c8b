// The per-key request count in the database, so instances behind one load balancer share each
// API key's quota: one atomic upsert per request, timed by the database's clock so instances
// whose clocks disagree still agree on the window. One row per API key, so nothing to prune.
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Db } from './queries.ts';

const NOW_MS = `(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint`;

export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix = 'secmon:';
  #windowMs = 60_000;
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { rows } = await this.#db.query<{ hits: number; reset_at: number }>(`SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > ${NOW_MS}`, [this.prefix + key]);
    return rows[0] && { totalHits: rows[0].hits, resetTime: new Date(rows[0].reset_at) };
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { rows } = await this.#db.query<{ hits: number; reset_at: number }>(
      `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, ${NOW_MS} + $2)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= ${NOW_MS} THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= ${NOW_MS} THEN ${NOW_MS} + $2 ELSE r.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix + key, this.#windowMs],
    );
    return { totalHits: rows[0]!.hits, resetTime: new Date(rows[0]!.reset_at) };
  }

  async decrement(key: string): Promise<void> {
    await this.#db.query('UPDATE rate_limits SET hits = GREATEST(hits - 1, 0) WHERE key = $1', [this.prefix + key]);
  }

  async resetKey(key: string): Promise<void> {
    await this.#db.query('DELETE FROM rate_limits WHERE key = $1', [this.prefix + key]);
  }
}
