// The embedded store: the synchronous node:sqlite modules of this folder behind the Store
// interface. One connection serves the process, so a transaction holds a gate while it runs:
// calls made meanwhile by other requests wait for it instead of joining its BEGIN ... COMMIT, and
// transactions queued behind it share its COMMIT (gate.ts).
import type { DatabaseSync } from 'node:sqlite';
import type { Store } from '../store.ts';
import { openDatabase, transaction } from './database.ts';
import { deleteFinding, getFinding, listFindings, upsertFinding } from './findings.ts';
import { Gate, settle } from './gate.ts';
import { findStoredResponse, storeResponse } from './idempotency.ts';
import {
  claimTransaction,
  countDeliveries,
  enqueueEvent,
  listDeliveries,
  listEvents,
  nextDueAt,
  onEnqueue,
  pruneFinished,
  recordTransaction,
  releaseAllLeases,
  releaseLease,
} from './outbox.ts';
import { deletePolicy, getPolicy, insertPolicy, listPolicies, replacePolicy } from './policies.ts';
import { deleteWebhook, getWebhook, insertWebhook, listWebhooks, replaceWebhook } from './webhooks.ts';

export interface SqliteStore extends Store {
  readonly engine: 'sqlite';
}

const connections = new WeakMap<Store, DatabaseSync>();

/**
 * The connection under a SQLite store (or a wrapper made with Object.create over one, such as the
 * app's fault reporting), for SQLite-specific tools (query plans, PRAGMAs); undefined for another store.
 */
export function sqliteConnection(store: Store): DatabaseSync | undefined {
  for (let current: object | null = store; current; current = Object.getPrototypeOf(current)) {
    const db = connections.get(current as Store);
    if (db) return db;
  }
  return undefined;
}

export function openSqliteStore(path: string): SqliteStore {
  return sqliteStore(openDatabase(path));
}

/** The store over an open, migrated database. */
export function sqliteStore(db: DatabaseSync): SqliteStore {
  const gate = new Gate(db);
  const outside = bind(
    db,
    (call) => gate.run(call),
    (fn, tx) => gate.transaction(() => fn(tx)),
  );
  // Inside a transaction the gate is ours: calls run at once, nested transactions are savepoints.
  const tx = bind(db, settle, (fn, self) => transaction(db, () => fn(self)))();
  const store = outside(tx);
  connections.set(store, db);
  return store;
}

type Transact = <T>(fn: (tx: Store) => Promise<T>, tx: SqliteStore) => Promise<T>;

function bind(db: DatabaseSync, call: <T>(fn: () => T) => Promise<T>, transact: Transact): (tx?: SqliteStore) => SqliteStore {
  return (txStore) => {
    const store: SqliteStore = {
      engine: 'sqlite',
      policies: {
        list: (filters, after, limit) => call(() => listPolicies(db, filters, after, limit)),
        get: (id) => call(() => getPolicy(db, id)),
        insert: (policy) => call(() => insertPolicy(db, policy)),
        replace: (policy) => call(() => replacePolicy(db, policy)),
        delete: (id) => call(() => deletePolicy(db, id)),
      },
      findings: {
        list: (filters, after, limit) => call(() => listFindings(db, filters, after, limit)),
        get: (id) => call(() => getFinding(db, id)),
        upsert: (finding) => call(() => upsertFinding(db, finding)),
        delete: (id) => call(() => deleteFinding(db, id)),
      },
      webhooks: {
        list: (filters, after, limit) => call(() => listWebhooks(db, filters, after, limit)),
        get: (id) => call(() => getWebhook(db, id)),
        insert: (webhook) => call(() => insertWebhook(db, webhook)),
        replace: (webhook) => call(() => replaceWebhook(db, webhook)),
        delete: (id) => call(() => deleteWebhook(db, id)),
      },
      idempotency: {
        find: (owner, key, now) => call(() => findStoredResponse(db, owner, key, now)),
        save: (owner, key, response, now) => call(() => storeResponse(db, owner, key, response, now)),
      },
      outbox: {
        enqueue: (body, recipients, now) => call(() => enqueueEvent(db, body, recipients, now)),
        onEnqueue: (listener) => onEnqueue(db, listener),
        // The claim and the outcomes of a batch are each one write transaction (the gate keeps
        // other calls off the connection meanwhile).
        claim: (fn) => transact(() => fn(claimTransaction(db)), txStore ?? store),
        record: (fn) => transact(() => fn(recordTransaction(db)), txStore ?? store),
        releaseLease: (delivery, now) => call(() => releaseLease(db, delivery.id, now)),
        // The server holds the database file (writer-lock.ts): a lease found at start-up belongs to a dead process.
        resumeOrphaned: (now) => call(() => releaseAllLeases(db, now)),
        nextDueAt: (after) => call(() => nextDueAt(db, after)),
        pruneFinished: (before) => call(() => transaction(db, () => pruneFinished(db, before))),
        listEvents: () => call(() => listEvents(db)),
        listDeliveries: (webhookId) => call(() => listDeliveries(db, webhookId)),
        countDeliveries: () => call(() => countDeliveries(db)),
      },
      transaction: (fn) => transact(fn, txStore ?? store),
      clear: () => call(() => transaction(db, () => clearTables(db))),
      ping: () => call(() => db.prepare('SELECT 1 AS ok').get()?.ok === 1).catch(() => false),
      probeWrite: () => call(() => probeWrite(db)),
      close: () => call(() => db.close()),
    };
    return store;
  };
}

// A table created, filled with a few pages and dropped: the write needs new pages, as a create does.
function probeWrite(db: DatabaseSync): void {
  transaction(db, () => {
    db.exec('DROP TABLE IF EXISTS readiness_probe; CREATE TABLE readiness_probe (bytes BLOB)');
    db.exec('INSERT INTO readiness_probe VALUES (zeroblob(16384))');
  });
  db.exec('DROP TABLE readiness_probe');
}

function clearTables(db: DatabaseSync): void {
  // Foreign keys are checked at COMMIT, when the caller has put every table in its new state.
  db.exec('PRAGMA defer_foreign_keys = ON');
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'")
    .all();
  for (const { name } of tables) db.exec(`DELETE FROM "${String(name)}"`);
}
