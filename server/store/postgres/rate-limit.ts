// The per-key request count in the database, so instances behind one load balancer share each
// API key's quota: one atomic upsert per request, timed by the database's clock so instances
// whose clocks disagree still agree on the window. One row per key, so nothing to prune.
import type { SharedCounters, WindowCount } from '../store.ts';
import type { Db } from './queries.ts';

const NOW_MS = `(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint`;

const toCount = (row: { hits: number; reset_at: number }): WindowCount => ({ hits: row.hits, resetAt: new Date(row.reset_at) });

export function postgresCounters(db: Db): SharedCounters {
  return {
    async get(key) {
      const { rows } = await db.query<{ hits: number; reset_at: number }>(
        `SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > ${NOW_MS}`,
        [key],
      );
      return rows[0] && toCount(rows[0]);
    },
    async increment(key, windowMs) {
      const { rows } = await db.query<{ hits: number; reset_at: number }>(
        `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, ${NOW_MS} + $2)
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN r.reset_at <= ${NOW_MS} THEN 1 ELSE r.hits + 1 END,
           reset_at = CASE WHEN r.reset_at <= ${NOW_MS} THEN ${NOW_MS} + $2 ELSE r.reset_at END
         RETURNING hits, reset_at`,
        [key, windowMs],
      );
      return toCount(rows[0]!);
    },
    async decrement(key) {
      await db.query('UPDATE rate_limits SET hits = GREATEST(hits - 1, 0) WHERE key = $1', [key]);
    },
    async reset(key) {
      await db.query('DELETE FROM rate_limits WHERE key = $1', [key]);
    },
  };
}
