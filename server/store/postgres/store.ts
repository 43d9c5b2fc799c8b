// The PostgreSQL store, for several instances on one database: the modules of this folder behind
// the Store interface, over a connection pool. Transactions are SERIALIZABLE and run again when
// PostgreSQL reports that they lost a race, so If-Match, idempotency keys and compliance events
// behave across instances as they do in one SQLite process.
import pg from 'pg';
import type { Store } from '../store.ts';
import { deleteWebhook, getWebhook, insertWebhook, listWebhooks, replaceWebhook } from './webhooks.ts';
import { getFinding, listFindings, writeFinding } from './findings.ts';
import { findStoredResponse, storeResponse } from './idempotency.ts';
import { OutboxListener } from './listener.ts';
import {
  claimDueDeliveries,
  countDeliveries,
  enqueueEvent,
  listDeliveries,
  listEvents,
  nextDueAt,
  OUTBOX_CHANNEL,
  pruneFinished,
  recordAttempts,
  releaseLease,
} from './outbox.ts';
import { deletePolicy, getPolicy, insertPolicy, listPolicies, replacePolicy } from './policies.ts';
import type { Db } from './queries.ts';
import { PostgresRateLimitStore } from './rate-limit.ts';
import { DATA_TABLES, migrate } from './schema.ts';

export interface PostgresStoreOptions {
  /** Connections per instance; the database's max_connections bounds instances × this. */
  poolSize?: number;
}

const INT8 = 20;
// bigint columns hold epoch milliseconds and counts, far below 2^53: numbers, not strings.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** serialization_failure and deadlock_detected: the transaction lost a race and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_TRIES = 12;

type Isolation = 'SERIALIZABLE' | 'READ COMMITTED';

/** Runs `fn` in a transaction of its own on a pooled client, again (after a short random pause) when it lost a race. */
async function transact<T>(pool: pg.Pool, isolation: Isolation, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // An error without a SQLSTATE is the connection's (or the caller's): ROLLBACK may fail too.
      await client.query('ROLLBACK').catch(() => (broken = true));
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !RETRYABLE.has(code) || attempt >= MAX_TRIES) throw error;
    } finally {
      client.release(broken);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 2 ** attempt)));
  }
}

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  // A database that stops answering fails requests (and /readyz) within seconds instead of holding them.
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types, connectionTimeoutMillis: 5000 });
  // An idle client that loses its connection emits here; the pool replaces it on the next query.
  pool.on('error', () => undefined);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const listener = new OutboxListener({ connectionString: url, types }, OUTBOX_CHANNEL);
  const rateLimits = new PostgresRateLimitStore(pool);
  let closing: Promise<void> | undefined;

  const bound = (db: Db, inTransaction: boolean): Store => {
    let savepoints = 0;
    // Compound operations and transactions: a transaction of their own from the pool, or a
    // savepoint (or nothing) inside the caller's.
    const atomic = <T>(fn: (tx: Store) => Promise<T>): Promise<T> => {
      if (!inTransaction) return transact(pool, 'SERIALIZABLE', (client) => fn(bound(client, true)));
      const name = `sp${++savepoints}`;
      return (async () => {
        await db.query(`SAVEPOINT ${name}`);
        try {
          const result = await fn(store);
          await db.query(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          await db.query(`ROLLBACK TO SAVEPOINT ${name}`);
          throw error;
        }
      })();
    };
    // The dispatcher's own short transactions: READ COMMITTED, as SKIP LOCKED is meant for.
    const dispatcherTransaction = <T>(fn: (db: Db) => Promise<T>): Promise<T> => (inTransaction ? fn(db) : transact(pool, 'READ COMMITTED', fn));
    const enqueueIn = (tx: Db) => (event: Parameters<typeof enqueueEvent>[1], now = new Date(), onlyWebhook?: string) => enqueueEvent(tx, event, now, onlyWebhook);

    const store: Store = {
      engine: 'postgres',
      policies: {
        list: (filters, after, limit) => listPolicies(db, filters, after, limit),
        get: (id) => getPolicy(db, id),
        insert: (id, input, now) => insertPolicy(db, id, input, now),
        replace: (id, input, now) => replacePolicy(db, id, input, now),
        delete: (id, now) => atomic((tx) => deletePolicy(txDb(tx), id, now)),
      },
      findings: {
        list: (filters, after, limit) => listFindings(db, filters, after, limit),
        get: (id) => getFinding(db, id),
        write: (before, after, now) => atomic((tx) => writeFinding(txDb(tx), before, after, now, enqueueIn(txDb(tx)))),
      },
      webhooks: {
        list: (filters, after, limit) => listWebhooks(db, filters, after, limit),
        get: (id) => getWebhook(db, id),
        insert: (id, input, now) => insertWebhook(db, id, input, now),
        replace: (id, input, now) => replaceWebhook(db, id, input, now),
        delete: (id) => deleteWebhook(db, id),
      },
      idempotency: {
        find: (owner, key, now) => findStoredResponse(db, owner, key, now),
        save: (owner, key, response, now) => storeResponse(db, owner, key, response, now),
      },
      outbox: {
        enqueue: (body, now, onlyWebhook) => atomic((tx) => enqueueIn(txDb(tx))(body, now, onlyWebhook)),
        onEnqueue: (listener_) => listener.subscribe(listener_),
        claimDue: (claim) => dispatcherTransaction((tx) => claimDueDeliveries(tx, claim)),
        recordAttempts: (attempts) => dispatcherTransaction((tx) => recordAttempts(tx, attempts)),
        releaseLease: (delivery, now) => releaseLease(db, delivery, now),
        // Leases of other instances are live; those of a dead one run out by themselves.
        resumeOrphaned: async () => 0,
        nextDueAt: (after) => nextDueAt(db, after),
        pruneFinished: (before) => dispatcherTransaction((tx) => pruneFinished(tx, before)),
        listEvents: () => listEvents(db),
        listDeliveries: (webhookId) => listDeliveries(db, webhookId),
        countDeliveries: () => countDeliveries(db),
      },
      transaction: atomic,
      clear: () => atomic(async (tx) => void (await txDb(tx).query(`TRUNCATE ${DATA_TABLES.join(', ')}`))),
      rateLimitStore: () => rateLimits,
      ping: async () => {
        try {
          return (await db.query('SELECT 1')).rowCount === 1;
        } catch {
          return false;
        }
      },
      close: () =>
        (closing ??= (async () => {
          await listener.close();
          await pool.end();
        })()),
    };
    connections.set(store, db);
    return store;
  };
  return bound(pool, false);
}

// The connection a transaction's store runs on, for the modules' functions that take one.
const connections = new WeakMap<Store, Db>();
const txDb = (tx: Store): Db => connections.get(tx)!;
