// The PostgreSQL store, for several instances on one database: the modules of this folder behind
// the Store interface, over a connection pool. Transactions are SERIALIZABLE and run again when
// PostgreSQL reports that they lost a race, so If-Match, idempotency keys and compliance events
// behave across instances as they do in one SQLite process.
import pg from 'pg';
import { classifyDatabaseError, rollBackAfter } from '../faults.ts';
import type { Store } from '../store.ts';
import { deleteFinding, getFinding, listFindings, upsertFinding } from './findings.ts';
import { findStoredResponse, storeResponse } from './idempotency.ts';
import { OutboxListener } from './listener.ts';
import {
  claimTransaction,
  countDeliveries,
  enqueueEvent,
  listDeliveries,
  listEvents,
  nextDueAt,
  OUTBOX_CHANNEL,
  pruneFinished,
  recordTransaction,
  releaseLease,
} from './outbox.ts';
import { deletePolicy, getPolicy, insertPolicy, listPolicies, replacePolicy } from './policies.ts';
import type { Db } from './queries.ts';
import { postgresCounters } from './rate-limit.ts';
import { DATA_TABLES, migrate } from './schema.ts';
import { deleteWebhook, getWebhook, insertWebhook, listWebhooks, replaceWebhook } from './webhooks.ts';

export interface PostgresStoreOptions {
  /** Connections per instance; the database's max_connections bounds instances × this. */
  poolSize?: number;
  /** statement_timeout: the longest one statement may run (default 3 s). */
  statementTimeoutMs?: number;
  /** The longest a call waits for a pooled connection, a new one's start-up included (default 2 s). */
  acquireTimeoutMs?: number;
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 3000;
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 2000;
/**
 * The client gives up on a statement this long after the server's statement_timeout would have
 * cancelled it: the server's cancel (57014, the connection stays usable) comes first when the
 * database runs; the client's own time-out ends the wait when it does not answer at all (stopped).
 */
const CLIENT_TIMEOUT_SLACK_MS = 250;
/**
 * How long a new connection may take to start, however short a request's wait for one: a start-up
 * the request stopped waiting for joins the pool and serves the next request. Ended at the
 * request's deadline instead, each one leaves PostgreSQL an abandoned start-up to fork and
 * authenticate after a stall, behind which the next attempts time out and are abandoned too: the
 * database then does not recover while requests keep coming.
 */
const CONNECTION_START_MS = 10_000;
// pg-pool's words for a wait that ran out, which faults.ts classifies.
const ACQUIRE_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

const INT8 = 20;
// bigint columns hold epoch milliseconds and counts, far below 2^53: numbers, not strings.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** serialization_failure and deadlock_detected: the transaction lost a race and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_TRIES = 12;

type Isolation = 'SERIALIZABLE' | 'READ COMMITTED';

/**
 * True when the connection itself failed (lost, or no answer in time): a query still waiting on it
 * would hold a ROLLBACK queued behind it, so the connection is dropped instead of rolled back (the
 * server rolls back a transaction whose connection goes).
 */
const connectionFailed = (error: unknown) =>
  classifyDatabaseError(error) !== undefined && !/^[0-9A-Z]{5}$/.test(String((error as { code?: unknown }).code));

/** A pooled client while it is held. */
interface Held {
  client: pg.PoolClient;
  /** Whether its connection failed while held. */
  lost(): boolean;
  /** Back to the pool, or ended when `failed` or lost. */
  release(failed: boolean): void;
}

type Acquire = () => Promise<Held>;

/** A pooled client within `waitMs`, else the acquire time-out; one that comes later goes back to the pool. */
function acquirer(pool: pg.Pool, waitMs: number): Acquire {
  return () =>
    new Promise((resolve, reject) => {
      let waiting = true;
      const timer = setTimeout(() => {
        waiting = false;
        reject(new Error(ACQUIRE_TIMEOUT_MESSAGE));
      }, waitMs);
      // A callback, not the promise: pg-pool stops listening for the client's errors when it hands
      // it over, and one emitted before a promise's continuation could listen (the server going
      // away, its message read with the one before) would end the process.
      pool.connect((error, client, done) => {
        if (error || !client) {
          clearTimeout(timer);
          return reject(error);
        }
        let lost = false;
        const onError = () => (lost = true);
        client.on('error', onError);
        const release = (failed: boolean) => {
          client.removeListener('error', onError);
          done(failed || lost);
        };
        if (!waiting) return release(false);
        clearTimeout(timer);
        resolve({ client, lost: () => lost, release });
      });
    });
}

/** pool.query, waiting for its connection as long as `acquire` does. */
function pooledQueries(acquire: Acquire): Db {
  const query = async (...args: unknown[]) => {
    const held = await acquire();
    // As pool.query does: a client whose query failed is not reused.
    let failed = false;
    try {
      return await (held.client.query as (...args: unknown[]) => Promise<unknown>)(...args);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      held.release(failed);
    }
  };
  return { query: query as Db['query'] };
}

/** Runs `fn` in a transaction of its own on a pooled client, again (after a short random pause) when it lost a race. */
async function transact<T>(acquire: Acquire, isolation: Isolation, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const held = await acquire();
    const { client } = held;
    let broken = false;
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A lost connection fails the query in progress, which fails the transaction.
      broken = held.lost() || connectionFailed(error) || !(await rollBackAfter(error, () => client.query('ROLLBACK')));
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !RETRYABLE.has(code) || attempt >= MAX_TRIES) throw error;
    } finally {
      held.release(broken);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 2 ** attempt)));
  }
}

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  // A database that stops answering fails requests within a bounded time instead of holding them:
  // every call waits at most acquireTimeoutMs for a connection and statementTimeoutMs (plus the
  // slack) for its answer.
  const acquireTimeoutMs = options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS;
  const connection: pg.ClientConfig = {
    connectionString: url,
    types,
    connectionTimeoutMillis: Math.max(acquireTimeoutMs, CONNECTION_START_MS),
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + CLIENT_TIMEOUT_SLACK_MS,
    keepAlive: true,
  };
  const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10 });
  // An idle client that loses its connection emits here; the pool replaces it on the next query.
  pool.on('error', () => undefined);
  const acquire = acquirer(pool, acquireTimeoutMs);
  // Migrations and the LISTEN connection are not requests: no statement or query time-out (an
  // index built on a large table takes longer; LISTEN only waits).
  const untimed: pg.ClientConfig = {
    connectionString: url,
    types,
    connectionTimeoutMillis: acquireTimeoutMs,
    keepAlive: true,
  };
  const migrator = new pg.Pool({ ...untimed, max: 1 });
  migrator.on('error', () => undefined);
  try {
    await migrate(migrator);
  } catch (error) {
    await pool.end();
    throw error;
  } finally {
    await migrator.end();
  }
  const listener = new OutboxListener(untimed, OUTBOX_CHANNEL);
  const requests = pooledQueries(acquire);
  const rateLimits = postgresCounters(requests);
  let closing: Promise<void> | undefined;

  const bound = (db: Db, inTransaction: boolean): Store => {
    let savepoints = 0;
    // Compound operations and transactions: a transaction of their own from the pool, or a
    // savepoint (or nothing) inside the caller's.
    const atomic = <T>(fn: (tx: Store) => Promise<T>): Promise<T> => {
      if (!inTransaction) return transact(acquire, 'SERIALIZABLE', (client) => fn(bound(client, true)));
      const name = `sp${++savepoints}`;
      return (async () => {
        await db.query(`SAVEPOINT ${name}`);
        try {
          const result = await fn(store);
          await db.query(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          if (!connectionFailed(error)) await rollBackAfter(error, () => db.query(`ROLLBACK TO SAVEPOINT ${name}`));
          throw error;
        }
      })();
    };
    // The dispatcher's own short transactions: READ COMMITTED, as SKIP LOCKED is meant for.
    const dispatcherTransaction = <T>(fn: (db: Db) => Promise<T>): Promise<T> =>
      inTransaction ? fn(db) : transact(acquire, 'READ COMMITTED', fn);

    const store: Store = {
      engine: 'postgres',
      policies: {
        list: (filters, after, limit) => listPolicies(db, filters, after, limit),
        get: (id) => getPolicy(db, id),
        insert: (policy) => insertPolicy(db, policy),
        replace: (policy) => replacePolicy(db, policy),
        delete: (id) => deletePolicy(db, id),
      },
      findings: {
        list: (filters, after, limit) => listFindings(db, filters, after, limit),
        get: (id) => getFinding(db, id),
        upsert: (finding) => upsertFinding(db, finding),
        delete: (id) => deleteFinding(db, id),
      },
      webhooks: {
        list: (filters, after, limit) => listWebhooks(db, filters, after, limit),
        get: (id) => getWebhook(db, id),
        insert: (webhook) => insertWebhook(db, webhook),
        replace: (webhook) => atomic((tx) => replaceWebhook(txDb(tx), webhook)),
        delete: (id) => deleteWebhook(db, id),
      },
      idempotency: {
        find: (owner, key, now) => findStoredResponse(db, owner, key, now),
        save: (owner, key, response, now) => storeResponse(db, owner, key, response, now),
      },
      outbox: {
        enqueue: (body, recipients, now) => atomic((tx) => enqueueEvent(txDb(tx), body, recipients, now)),
        onEnqueue: (listener_) => listener.subscribe(listener_),
        claim: (fn) => dispatcherTransaction((tx) => fn(claimTransaction(tx))),
        record: (fn) => dispatcherTransaction((tx) => fn(recordTransaction(tx))),
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
      rateLimits,
      ping: async () => {
        try {
          return (await db.query('SELECT 1')).rowCount === 1;
        } catch {
          return false;
        }
      },
      probeWrite: () =>
        transact(acquire, 'READ COMMITTED', async (client) => {
          await client.query('CREATE TEMPORARY TABLE readiness_probe (bytes bytea) ON COMMIT DROP');
          await client.query("INSERT INTO readiness_probe VALUES (decode(repeat('00', 16384), 'hex'))");
        }),
      close: () =>
        (closing ??= (async () => {
          await listener.close();
          await pool.end();
        })()),
    };
    connections.set(store, db);
    return store;
  };
  return bound(requests, false);
}

// The connection a transaction's store runs on, for the modules' functions that take one.
const connections = new WeakMap<Store, Db>();
const txDb = (tx: Store): Db => connections.get(tx)!;
