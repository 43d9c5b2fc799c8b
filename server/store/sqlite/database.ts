// Opens the SQLite database (WAL), applies the migrations and gives the store its one transaction
// helper. Every SQL statement of the server lives under server/store/.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { rollBackAfterSync } from '../faults.ts';

export type { DatabaseSync };

// Append only: a released migration is never edited, a new one gets the next number.
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE policies (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     severity TEXT NOT NULL,
     enabled INTEGER NOT NULL,
     frameworks TEXT NOT NULL,
     rule TEXT,
     version INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX policies_order ON policies (created_at DESC, id DESC);

   CREATE TABLE findings (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     description TEXT NOT NULL,
     severity TEXT NOT NULL,
     status TEXT NOT NULL,
     resolution TEXT,
     device_id TEXT NOT NULL,
     policy_id TEXT REFERENCES policies (id),
     first_seen_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL,
     resolved_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX findings_order ON findings (created_at DESC, id DESC);
   CREATE INDEX findings_policy ON findings (policy_id, status);

   CREATE TABLE webhooks (
     id TEXT PRIMARY KEY,
     url TEXT NOT NULL,
     events TEXT NOT NULL,
     secret TEXT,
     description TEXT NOT NULL,
     enabled INTEGER NOT NULL,
     disabled_reason TEXT,
     last_delivery TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX webhooks_order ON webhooks (created_at DESC, id DESC);

   CREATE TABLE idempotency_keys (
     owner TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     status INTEGER NOT NULL,
     location TEXT NOT NULL,
     etag TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (owner, key)
   );
   CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);`,

  // List filters read O(limit) rows: each index puts a filter's equality columns before the
  // page order, so SQLite seeks to the filter and the cursor and reads the page in order.
  // findings_policy_status also answers the compliance and policy-in-use checks, as
  // findings_policy did. Filter combinations without their own index use the index of their
  // most selective column (device, then policy) and test the rest row by row.
  // Webhook events live in a JSON array; webhook_subscriptions is its index, one row per
  // subscribed event, kept in step by triggers whoever writes the webhook.
  `DROP INDEX findings_policy;
   CREATE INDEX findings_policy_status ON findings (policy_id, status, created_at DESC, id DESC);
   CREATE INDEX findings_policy_order ON findings (policy_id, created_at DESC, id DESC);
   CREATE INDEX findings_device ON findings (device_id, created_at DESC, id DESC);
   CREATE INDEX findings_device_status ON findings (device_id, status, created_at DESC, id DESC);
   CREATE INDEX findings_status ON findings (status, created_at DESC, id DESC);
   CREATE INDEX findings_status_severity ON findings (status, severity, created_at DESC, id DESC);
   CREATE INDEX findings_severity ON findings (severity, created_at DESC, id DESC);

   CREATE INDEX policies_enabled ON policies (enabled, created_at DESC, id DESC);
   CREATE INDEX policies_severity ON policies (severity, created_at DESC, id DESC);
   CREATE INDEX policies_enabled_severity ON policies (enabled, severity, created_at DESC, id DESC);

   CREATE INDEX webhooks_enabled ON webhooks (enabled, created_at DESC, id DESC);
   CREATE TABLE webhook_subscriptions (
     id TEXT NOT NULL,
     event TEXT NOT NULL,
     enabled INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (id, event)
   ) WITHOUT ROWID;
   CREATE INDEX webhook_subscriptions_event ON webhook_subscriptions (event, created_at DESC, id DESC);
   CREATE INDEX webhook_subscriptions_event_enabled ON webhook_subscriptions (event, enabled, created_at DESC, id DESC);
   INSERT INTO webhook_subscriptions (id, event, enabled, created_at)
     SELECT DISTINCT w.id, e.value, w.enabled, w.created_at FROM webhooks w, json_each(w.events) e;
   CREATE TRIGGER webhooks_subscribe AFTER INSERT ON webhooks BEGIN
     INSERT INTO webhook_subscriptions (id, event, enabled, created_at)
       SELECT DISTINCT NEW.id, e.value, NEW.enabled, NEW.created_at FROM json_each(NEW.events) e;
   END;
   CREATE TRIGGER webhooks_resubscribe AFTER UPDATE OF events, enabled ON webhooks BEGIN
     DELETE FROM webhook_subscriptions WHERE id = OLD.id;
     INSERT INTO webhook_subscriptions (id, event, enabled, created_at)
       SELECT DISTINCT NEW.id, e.value, NEW.enabled, NEW.created_at FROM json_each(NEW.events) e;
   END;
   CREATE TRIGGER webhooks_unsubscribe AFTER DELETE ON webhooks BEGIN
     DELETE FROM webhook_subscriptions WHERE id = OLD.id;
   END;`,

  // Secret rotation: the secret a PUT replaced keeps signing deliveries (beside the new one) until
  // previous_secret_expires_at (epoch ms), so receivers can switch without refusing any.
  `ALTER TABLE webhooks ADD COLUMN previous_secret TEXT;
   ALTER TABLE webhooks ADD COLUMN previous_secret_expires_at INTEGER;`,

  // The webhook outbox. Databases made before it was numbered created these tables at every
  // start outside the migrations: IF NOT EXISTS leaves theirs as they are.
  `CREATE TABLE IF NOT EXISTS webhook_events (
     id TEXT PRIMARY KEY,
     type TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE IF NOT EXISTS webhook_deliveries (
     id TEXT PRIMARY KEY,
     event_id TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
     webhook_id TEXT NOT NULL,
     state TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     due_at INTEGER NOT NULL,
     leased_until INTEGER,
     first_attempt_at INTEGER,
     last_status INTEGER,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     finished_at INTEGER
   );
   CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (due_at) WHERE state = 'pending';
   CREATE INDEX IF NOT EXISTS webhook_deliveries_webhook ON webhook_deliveries (webhook_id, state, finished_at);
   CREATE INDEX IF NOT EXISTS webhook_deliveries_event ON webhook_deliveries (event_id);`,
];

/**
 * How long a statement waits for a lock another process holds (a backup, the sqlite3 shell; this
 * server holds the file against other servers) before failing with SQLITE_BUSY, answered 503.
 * node:sqlite waits synchronously, stopping the whole process meanwhile, so it stays short.
 */
export const BUSY_TIMEOUT_MS = 1000;

export function openDatabase(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS};`);
  migrate(db);
  return db;
}

function migrate(db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = (db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get()?.version as number | null) ?? 0;
  MIGRATIONS.forEach((sql, index) => {
    const version = index + 1;
    if (version <= applied) return;
    transaction(db, () => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    });
  });
}

/**
 * Runs `fn` atomically, whether it returns a value or a promise (then the caller must keep other
 * work off the connection until it settles: the store's gate). The outer call takes the write
 * lock up front (BEGIN IMMEDIATE) so two writers never deadlock upgrading a read lock; nested
 * calls become savepoints.
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  const nested = db.isTransaction;
  const commit = nested ? 'RELEASE nested' : 'COMMIT';
  const fail = (error: unknown): never => {
    rollBack(db, error, nested ? 'ROLLBACK TO nested; RELEASE nested' : 'ROLLBACK');
    throw error;
  };
  db.exec(nested ? 'SAVEPOINT nested' : 'BEGIN IMMEDIATE');
  try {
    const result = fn();
    if (result instanceof Promise) {
      return result.then((value: unknown) => {
        try {
          db.exec(commit);
          return value;
        } catch (error) {
          return fail(error);
        }
      }, fail) as T;
    }
    db.exec(commit);
    return result;
  } catch (error) {
    return fail(error);
  }
}

/**
 * Undoes a failed transaction (or savepoint) without masking its cause: SQLite may have rolled
 * back by itself (it does on a full disk), and a ROLLBACK that fails is recorded beside the error.
 */
export function rollBack(db: DatabaseSync, cause: unknown, rollback: string): void {
  if (db.isTransaction) rollBackAfterSync(cause, () => db.exec(rollback));
}
