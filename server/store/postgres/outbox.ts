// The webhook outbox's SQL on PostgreSQL, for several dispatchers on one database: claims take
// turns and lock due rows with FOR UPDATE SKIP LOCKED, outcomes are recorded only under the
// claim's lease, and a committed enqueue notifies every instance (NOTIFY secmon_outbox). What a
// claim takes and what an outcome means is decided once for both stores, in server/webhooks/.
import { randomUUID } from 'node:crypto';
import type { EventType, WebhookEvent } from '../../../lib/events.ts';
import { serializeEvent } from '../event-body.ts';
import { validPreviousSecret } from '../secret-rotation.ts';
import type { ClaimTransaction, DeliveryRow, DeliveryState, DeliveryUpdate, DueDelivery, RecordTransaction } from '../store.ts';
import type { Db } from './queries.ts';

export const OUTBOX_CHANNEL = 'secmon_outbox';
/**
 * Claims take turns (a claim is a few milliseconds; attempts run in parallel), so the leased
 * counts a claim plans with are exact and every endpoint's limit holds across instances.
 */
const CLAIM_LOCK = 0x5ec0_0002;

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
  enabled: boolean | null;
}

/** Due pending deliveries, oldest first, locked for this claim and skipping rows another claim holds. */
const DUE_SQL = `SELECT d.id, d.webhook_id, d.attempts, d.first_attempt_at, d.created_at, e.type, e.body, w.url, w.secret, w.enabled,
    ${validPreviousSecret('$1')}
  FROM webhook_deliveries d
  JOIN webhook_events e ON e.id = d.event_id
  LEFT JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.state = 'pending' AND d.due_at <= $1
    AND d.webhook_id <> ALL($2::text[])
    AND (d.attempts > 0 OR d.webhook_id <> ALL($3::text[]))
  ORDER BY d.due_at
  LIMIT $4
  FOR UPDATE OF d SKIP LOCKED`;

/**
 * A claim's statements (see ClaimTransaction), on the client of a READ COMMITTED transaction of
 * its own: claims take turns (CLAIM_LOCK), and the due rows stay locked until the claim commits.
 */
export async function claimTransaction(db: Db): Promise<ClaimTransaction> {
  await db.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
  return {
    leased: async (now) => {
      const { rows } = await db.query<{ webhook_id: string; n: number }>(
        `SELECT webhook_id, COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending' AND leased_until > $1 GROUP BY webhook_id`,
        [now],
      );
      return new Map(rows.map((row) => [row.webhook_id, row.n]));
    },
    due: async ({ now, exclude, retriesOnly, limit }) =>
      (await db.query<DueRow>(DUE_SQL, [now, [...exclude], [...retriesOnly], limit])).rows.map(toDue),
    cancel: async (cancelled, now) => {
      await db.query(
        `UPDATE webhook_deliveries d SET state = 'cancelled', leased_until = NULL, finished_at = $1, last_error = c.reason
         FROM unnest($2::text[], $3::text[]) AS c (id, reason) WHERE d.id = c.id`,
        [now, cancelled.map((row) => row.id), cancelled.map((row) => row.reason)],
      );
    },
    lease: async (ids, until) => {
      await db.query('UPDATE webhook_deliveries SET leased_until = $1, due_at = $1 WHERE id = ANY($2::text[])', [until, ids]);
    },
  };
}

function toDue(row: DueRow): DueDelivery {
  return {
    id: row.id,
    eventType: row.type,
    body: row.body,
    webhookId: row.webhook_id,
    url: row.url!,
    secret: row.secret,
    previousSecret: row.previous_secret,
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
