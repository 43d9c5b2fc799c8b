// The webhook outbox's SQL on PostgreSQL, for several dispatchers on one database: a claim locks
// only the webhooks it leases for (transaction-level advisory locks, one per webhook), outcomes
// are recorded only under the claim's lease, and a committed enqueue notifies every instance
// (NOTIFY secmon_outbox). What a claim takes and what an outcome means is decided once for both
// stores, in server/webhooks/.
import { randomUUID } from 'node:crypto';
import type { EventType, WebhookEvent } from '../../../lib/events.ts';
import { signingSecrets } from '../../domain/webhooks.ts';
import { serializeEvent } from '../event-body.ts';
import type { ClaimTransaction, DeliveryRow, DeliveryState, DeliveryUpdate, DueDelivery, RecordTransaction } from '../store.ts';
import type { Db } from './queries.ts';

export const OUTBOX_CHANNEL = 'secmon_outbox';
/**
 * The first key of the two-key advisory locks a claim takes per webhook (the second is the hash
 * of the webhook's id): every lease of a webhook is written under its lock, so the leases counted
 * while holding it are exact and every endpoint's limit holds across instances. Two webhooks
 * whose ids hash alike share a lock; their claims then take turns, which is safe.
 */
const WEBHOOK_CLAIM_LOCKS = 0x5ec0_0002;
/** Queues an event for every enabled subscriber (or only `onlyWebhook`); call inside the transaction that makes the change. */
export async function enqueueEvent(db: Db, body: WebhookEvent, now: Date, onlyWebhook?: string): Promise<number> {
  const text = serializeEvent(body);
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM webhook_subscriptions WHERE event = $1 AND enabled AND ($2::text IS NULL OR id = $2)',
    [body.event, onlyWebhook ?? null],
  );
  if (rows.length === 0) return 0;
  const eventId = randomUUID();
  const ms = now.getTime();
  await db.query('INSERT INTO webhook_events (id, type, body, created_at) VALUES ($1, $2, $3, $4)', [
    eventId,
    body.event,
    text,
    now.toISOString(),
  ]);
  await db.query(
    `INSERT INTO webhook_deliveries (id, event_id, webhook_id, state, attempts, due_at, created_at)
     SELECT unnest($1::text[]), $2, unnest($3::text[]), 'pending', 0, $4, $4`,
    [rows.map(() => randomUUID()), eventId, rows.map((row) => row.id), ms],
  );
  // Delivered to every listening instance when (and only if) the transaction commits.
  await db.query('SELECT pg_notify($1, $2)', [OUTBOX_CHANNEL, '']);
  return rows.length;
}

interface DueRow {
  id: string;
  webhook_id: string;
  attempts: number;
  first_attempt_at: number | null;
  created_at: number;
  type: EventType;
  body: string;
  url: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  enabled: boolean | null;
}

/**
 * Due pending deliveries, retries first, each oldest first. Read without row locks: rows are leased only under their
 * webhook's lock, and lease() checks that each is still due.
 */
const DUE_SQL = `SELECT d.id, d.webhook_id, d.attempts, d.first_attempt_at, d.created_at, e.type, e.body, w.url, w.secret, w.enabled,
    w.previous_secret, w.previous_secret_expires_at
  FROM webhook_deliveries d
  JOIN webhook_events e ON e.id = d.event_id
  LEFT JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.state = 'pending' AND d.due_at <= $1
    AND d.webhook_id <> ALL($2::text[])
    AND (d.attempts > 0 OR d.webhook_id <> ALL($3::text[]))
  ORDER BY d.attempts = 0, d.due_at
  LIMIT $4`;

/**
 * Takes the webhooks' claim locks in key order. With $4 (wait) a claim waits only for a key above
 * every key it holds, so waits never form a cycle and no deadlock is possible; any other key is
 * only tried, and left out when another claim holds it. The subquery's ORDER BY keeps it from
 * being flattened, so the locks are taken in that order.
 */
const LOCK_SQL = `SELECT s.id, s.key,
    CASE WHEN $4::boolean AND s.key > $3::bigint THEN pg_advisory_xact_lock($2, s.key)::text = '' ELSE pg_try_advisory_xact_lock($2, s.key) END AS locked
  FROM (SELECT id, hashtext(id) AS key FROM unnest($1::text[]) AS id ORDER BY key) AS s`;

/**
 * Of the rows (parameter `ids`) read as due, those still due at `now`, locked for the update; a
 * row another transaction is writing (an outcome, another claim's cancellation) is skipped, so a
 * claim waits for no row lock, only for webhook locks, which only claims hold.
 */
const stillDue = (ids: string, now: string) =>
  `SELECT id FROM webhook_deliveries WHERE id = ANY(${ids}::text[]) AND state = 'pending' AND due_at <= ${now} FOR UPDATE SKIP LOCKED`;

/**
 * A claim's statements (see ClaimTransaction), on the client of a READ COMMITTED transaction of
 * its own; the webhook locks it takes are held until it commits.
 */
export function claimTransaction(db: Db): ClaimTransaction {
  /** The highest lock key this claim holds (the lowest int4 before the first). */
  let highest = -(2 ** 31) - 1;
  return {
    due: async ({ now, exclude, retriesOnly, limit }) =>
      (await db.query<DueRow>(DUE_SQL, [now, [...exclude], [...retriesOnly], limit])).rows.map((row) => toDue(row, now)),
    lockWebhooks: async (ids, now, { wait }) => {
      const { rows: locks } = await db.query<{ id: string; locked: boolean; key: number }>(LOCK_SQL, [
        ids,
        WEBHOOK_CLAIM_LOCKS,
        highest,
        wait,
      ]);
      const locked = locks.filter((lock) => lock.locked);
      if (locked.length === 0) return new Map();
      highest = Math.max(highest, ...locked.map((lock) => lock.key));
      // A statement of its own: its snapshot is taken after the locks, so it sees every lease committed under them.
      const { rows } = await db.query<{ webhook_id: string; n: number }>(
        `SELECT webhook_id, COUNT(*) AS n FROM webhook_deliveries
         WHERE webhook_id = ANY($1::text[]) AND state = 'pending' AND leased_until > $2 GROUP BY webhook_id`,
        [locked.map((lock) => lock.id), now],
      );
      const counts = new Map(locked.map((lock) => [lock.id, 0]));
      for (const row of rows) counts.set(row.webhook_id, row.n);
      return counts;
    },
    cancel: async (cancelled, now) => {
      await db.query(
        `UPDATE webhook_deliveries d SET state = 'cancelled', leased_until = NULL, finished_at = $1, last_error = c.reason
         FROM unnest($2::text[], $3::text[]) AS c (id, reason)
         WHERE d.id = c.id AND d.id IN (${stillDue('$2', '$1')})`,
        [now, cancelled.map((row) => row.id), cancelled.map((row) => row.reason)],
      );
    },
    lease: async (ids, until, now) => {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE webhook_deliveries SET leased_until = $1, due_at = $1 WHERE id IN (${stillDue('$2', '$3')})
         RETURNING id`,
        [until, ids, now],
      );
      return rows.map((row) => row.id);
    },
  };
}

function toDue(row: DueRow, now: number): DueDelivery {
  const secrets = { secret: row.secret, previousSecret: row.previous_secret, previousSecretExpiresAt: row.previous_secret_expires_at };
  return {
    id: row.id,
    eventType: row.type,
    body: row.body,
    webhookId: row.webhook_id,
    url: row.url!,
    ...signingSecrets(secrets, now),
    attempts: row.attempts,
    firstAttemptAt: row.first_attempt_at,
    createdAt: row.created_at,
    webhook: row.url === null ? 'deleted' : row.enabled === true ? 'enabled' : 'disabled',
  };
}

/** Gives a delivery back, due at `now`, if this claim still holds its lease. */
export async function releaseLease(db: Db, delivery: { id: string; leasedUntil: number }, now: number): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET leased_until = NULL, due_at = $1 WHERE id = $2 AND state = 'pending' AND leased_until = $3`,
    [now, delivery.id, delivery.leasedUntil],
  );
}

/** The statements recording outcomes (see RecordTransaction): an update applies only under its claim's lease. */
export function recordTransaction(db: Db): RecordTransaction {
  return {
    // A batch's outcomes in one statement (one round trip, not one per attempt).
    update: async (updates) => {
      const column = <T>(pick: (update: DeliveryUpdate) => T) => updates.map(pick);
      const { rows } = await db.query<{ id: string }>(
        `UPDATE webhook_deliveries d
         SET state = u.state, attempts = d.attempts + 1, first_attempt_at = u.first_attempt_at, last_status = u.last_status,
             last_error = u.last_error, leased_until = NULL, due_at = u.due_at, finished_at = u.finished_at
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::integer[], $6::text[], $7::bigint[], $8::bigint[])
           AS u (id, leased_until, state, first_attempt_at, last_status, last_error, due_at, finished_at)
         WHERE d.id = u.id AND d.state = 'pending' AND d.leased_until = u.leased_until
         RETURNING d.id`,
        [
          column((update) => update.id),
          column((update) => update.leasedUntil),
          column((update) => update.state),
          column((update) => update.firstAttemptAt),
          column((update) => update.lastStatus),
          column((update) => update.lastError),
          column((update) => update.dueAt),
          column((update) => update.finishedAt),
        ],
      );
      const applied = new Set(rows.map((row) => row.id));
      return updates.map((update) => applied.has(update.id));
    },
    setLastDelivery: async (webhookId, lastDelivery) => {
      await db.query('UPDATE webhooks SET last_delivery = $1 WHERE id = $2', [JSON.stringify(lastDelivery), webhookId]);
    },
    deliveredSince: async (webhookId, since) => {
      const { rowCount } = await db.query(
        `SELECT 1 FROM webhook_deliveries WHERE webhook_id = $1 AND state = 'delivered' AND finished_at >= $2 LIMIT 1`,
        [webhookId, since],
      );
      return (rowCount ?? 0) > 0;
    },
    disable: async (webhookId, reason, at) => {
      const { rowCount } = await db.query(
        'UPDATE webhooks SET enabled = false, disabled_reason = $1, updated_at = $2 WHERE id = $3 AND enabled',
        [reason, at, webhookId],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}

export async function nextDueAt(db: Db, after = -Infinity): Promise<number | null> {
  const { rows } = await db.query<{ next: number | null }>(
    `SELECT MIN(due_at) AS next FROM webhook_deliveries WHERE state = 'pending' AND due_at > $1`,
    [Number.isFinite(after) ? after : Number.MIN_SAFE_INTEGER],
  );
  return rows[0]?.next ?? null;
}

export async function pruneFinished(db: Db, before: number): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < $1`, [before]);
  await db.query('DELETE FROM webhook_events e WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)');
  return rowCount ?? 0;
}

export async function listEvents(db: Db): Promise<WebhookEvent[]> {
  const { rows } = await db.query<{ body: string }>('SELECT body FROM webhook_events ORDER BY seq');
  return rows.map((row) => JSON.parse(row.body) as WebhookEvent);
}

export async function listDeliveries(db: Db, webhookId: string): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT id, event_id AS "eventId", webhook_id AS "webhookId", state, attempts, last_status AS "lastStatus", last_error AS "lastError",
       due_at AS "dueAt", first_attempt_at AS "firstAttemptAt"
     FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq`,
    [webhookId],
  );
  return rows;
}

export async function countDeliveries(db: Db): Promise<Record<DeliveryState, number>> {
  const counts: Record<DeliveryState, number> = { pending: 0, delivered: 0, failed: 0, gone: 0, cancelled: 0 };
  const { rows } = await db.query<{ state: DeliveryState; n: number }>(
    'SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state',
  );
  for (const row of rows) counts[row.state] = row.n;
  return counts;
}
