// The webhook outbox's SQL on SQLite: events and their deliveries are rows written in the same
// transaction as the change that caused them. What a claim takes and what an outcome means is
// decided once for both stores, in server/webhooks/; this module only reads and writes rows.
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { EventType, WebhookEvent } from '../../../lib/events.ts';
import { signingSecrets } from '../../domain/webhooks.ts';
import { serializeEvent } from '../event-body.ts';
import type { ClaimTransaction, DeliveryRow, DeliveryState, DueDelivery, RecordTransaction } from '../store.ts';
import { type Row, statement } from './statements.ts';

// The dispatcher shares the store's connection; node:sqlite is synchronous, so a listener
// scheduled with setImmediate runs after the caller's transaction has committed or rolled back.
const listeners = new WeakMap<DatabaseSync, Set<() => void>>();

/** Calls `listener` soon after any enqueue on this database. Returns the unsubscribe function. */
export function onEnqueue(db: DatabaseSync, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Queues an event for every enabled webhook subscribed to its type. Call it inside the
 * transaction that makes the change: if that rolls back, nothing is sent. The body is validated
 * against its webhook schema and serialised once; every attempt sends exactly these bytes.
 * Returns the number of deliveries queued. `onlyWebhook` restricts it to that one subscriber.
 */
export function enqueueEvent(db: DatabaseSync, body: WebhookEvent, now: Date = new Date(), onlyWebhook?: string): number {
  const text = serializeEvent(body);
  const subscribers = statement(
    db,
    `SELECT id FROM webhooks
     WHERE enabled = 1 AND EXISTS (SELECT 1 FROM json_each(webhooks.events) e WHERE e.value = ?1) AND (?2 IS NULL OR id = ?2)`,
  ).all(body.event, onlyWebhook ?? null) as { id: string }[];
  if (subscribers.length === 0) return 0;

  const eventId = randomUUID();
  const ms = now.getTime();
  statement(db, 'INSERT INTO webhook_events (id, type, body, created_at) VALUES (?, ?, ?, ?)').run(
    eventId,
    body.event,
    text,
    now.toISOString(),
  );
  const insert = statement(
    db,
    `INSERT INTO webhook_deliveries (id, event_id, webhook_id, state, attempts, due_at, created_at)
     VALUES (?, ?, ?, 'pending', 0, ?, ?)`,
  );
  for (const { id } of subscribers) insert.run(randomUUID(), eventId, id, ms, ms);
  const set = listeners.get(db);
  if (set?.size) setImmediate(() => set.forEach((listener) => listener()));
  return subscribers.length;
}

/**
 * A claim's statements (see ClaimTransaction), run inside the caller's transaction. The server
 * holds the file (writer-lock.ts): only this process leases, and its own attempts it counts itself.
 */
export function claimTransaction(db: DatabaseSync): ClaimTransaction {
  return {
    due: async ({ now, exclude, retriesOnly, limit }) =>
      (statement(db, DUE_SQL).all(now, JSON.stringify([...exclude]), JSON.stringify([...retriesOnly]), limit) as Row[]).map((row) =>
        toDue(row, now),
      ),
    cancel: async (cancelled, now) => {
      const cancel = statement(
        db,
        `UPDATE webhook_deliveries SET state = 'cancelled', leased_until = NULL, finished_at = ?, last_error = ? WHERE id = ?`,
      );
      for (const { id, reason } of cancelled) cancel.run(now, reason, id);
    },
    // The single writer: nothing else leases between this claim's reads and writes.
    lockWebhooks: async (ids) => new Map(ids.map((id) => [id, 0])),
    lease: async (ids, until) => {
      const lease = statement(db, 'UPDATE webhook_deliveries SET leased_until = ?, due_at = ? WHERE id = ?');
      for (const id of ids) lease.run(until, until, id);
      return [...ids];
    },
  };
}

/** Due pending deliveries, retries first, each oldest first, without the webhooks in ?2 and with only retries of those in ?3. */
const DUE_SQL = `SELECT d.id, d.webhook_id, d.attempts, d.first_attempt_at, d.created_at, e.type, e.body, w.url, w.secret, w.enabled,
    w.previous_secret, w.previous_secret_expires_at
  FROM webhook_deliveries d
  JOIN webhook_events e ON e.id = d.event_id
  LEFT JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.state = 'pending' AND d.due_at <= ?1
    AND d.webhook_id NOT IN (SELECT value FROM json_each(?2))
    AND (d.attempts > 0 OR d.webhook_id NOT IN (SELECT value FROM json_each(?3)))
  ORDER BY d.attempts = 0, d.due_at
  LIMIT ?4`;

function toDue(row: Row, now: number): DueDelivery {
  const secrets = {
    secret: row.secret as string | null,
    previousSecret: row.previous_secret as string | null,
    previousSecretExpiresAt: row.previous_secret_expires_at as number | null,
  };
  return {
    id: row.id as string,
    eventType: row.type as EventType,
    body: row.body as string,
    webhookId: row.webhook_id as string,
    url: row.url as string,
    ...signingSecrets(secrets, now),
    attempts: row.attempts as number,
    firstAttemptAt: row.first_attempt_at as number | null,
    createdAt: row.created_at as number,
    webhook: row.url === null ? 'deleted' : row.enabled === 1 ? 'enabled' : 'disabled',
  };
}

/**
 * Makes every leased delivery due at `now`. Called once when a dispatcher starts: the server
 * holds the database file (server/store/sqlite/writer-lock.ts), so a lease still held at start-up belongs
 * to a process that died mid-attempt.
 */
export function releaseAllLeases(db: DatabaseSync, now: number): number {
  return Number(
    statement(db, `UPDATE webhook_deliveries SET leased_until = NULL, due_at = ? WHERE state = 'pending' AND leased_until IS NOT NULL`).run(
      now,
    ).changes,
  );
}

/** Gives a claimed delivery back, due at `now`, without counting an attempt (shutdown aborted it). */
export function releaseLease(db: DatabaseSync, deliveryId: string, now: number): void {
  statement(db, `UPDATE webhook_deliveries SET leased_until = NULL, due_at = ? WHERE id = ? AND state = 'pending'`).run(now, deliveryId);
}

/** The statements recording outcomes (see RecordTransaction), run inside the caller's transaction; one process leases, so no lease check. */
export function recordTransaction(db: DatabaseSync): RecordTransaction {
  return {
    update: async (updates) =>
      updates.map((update) => {
        statement(
          db,
          `UPDATE webhook_deliveries
           SET state = ?, attempts = attempts + 1, first_attempt_at = ?, last_status = ?, last_error = ?, leased_until = NULL,
               due_at = ?, finished_at = ?
           WHERE id = ?`,
        ).run(update.state, update.firstAttemptAt, update.lastStatus, update.lastError, update.dueAt, update.finishedAt, update.id);
        return true;
      }),
    setLastDelivery: async (webhookId, lastDelivery) => {
      statement(db, 'UPDATE webhooks SET last_delivery = ? WHERE id = ?').run(JSON.stringify(lastDelivery), webhookId);
    },
    deliveredSince: async (webhookId, since) =>
      statement(db, `SELECT 1 FROM webhook_deliveries WHERE webhook_id = ? AND state = 'delivered' AND finished_at >= ? LIMIT 1`).get(
        webhookId,
        since,
      ) !== undefined,
    disable: async (webhookId, reason, at) =>
      Number(
        statement(db, `UPDATE webhooks SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = 1`).run(
          reason,
          at,
          webhookId,
        ).changes,
      ) > 0,
  };
}

/** Epoch ms of the earliest due time of a pending delivery after `after` (all of them by default), or null. */
export function nextDueAt(db: DatabaseSync, after = -Infinity): number | null {
  const row = statement(db, `SELECT MIN(due_at) AS next FROM webhook_deliveries WHERE state = 'pending' AND due_at > ?`).get(after) as
    | { next: number | null }
    | undefined;
  return row?.next ?? null;
}

/** Deletes finished deliveries older than `before` (epoch ms) and events left without deliveries. */
export function pruneFinished(db: DatabaseSync, before: number): number {
  const removed = statement(db, `DELETE FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < ?`).run(before).changes;
  statement(
    db,
    `DELETE FROM webhook_events WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
  ).run();
  return Number(removed);
}

/** Every queued event body in the order it was queued (operators, tests). */
export function listEvents(db: DatabaseSync): WebhookEvent[] {
  return (statement(db, 'SELECT body FROM webhook_events ORDER BY rowid').all() as { body: string }[]).map(
    (row) => JSON.parse(row.body) as WebhookEvent,
  );
}

/** Every delivery of a webhook, oldest first (operators, tests). */
export function listDeliveries(db: DatabaseSync, webhookId: string): DeliveryRow[] {
  const rows = statement(
    db,
    `SELECT id, event_id, webhook_id, state, attempts, last_status, last_error, due_at, first_attempt_at FROM webhook_deliveries
     WHERE webhook_id = ? ORDER BY created_at, rowid`,
  ).all(webhookId) as Row[];
  return rows.map((row) => ({
    id: row.id as string,
    eventId: row.event_id as string,
    webhookId: row.webhook_id as string,
    state: row.state as DeliveryState,
    attempts: row.attempts as number,
    lastStatus: row.last_status as number | null,
    lastError: row.last_error as string | null,
    dueAt: row.due_at as number,
    firstAttemptAt: row.first_attempt_at as number | null,
  }));
}

/** Counts of deliveries by state (operators, tests, the benchmark). */
export function countDeliveries(db: DatabaseSync): Record<DeliveryState, number> {
  const counts: Record<DeliveryState, number> = { pending: 0, delivered: 0, failed: 0, gone: 0, cancelled: 0 };
  for (const row of statement(db, 'SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state').all() as Row[]) {
    counts[row.state as DeliveryState] = row.n as number;
  }
  return counts;
}
