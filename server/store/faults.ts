// What a database error means to a client and to an operator: errors of both stores sorted into
// "the database is briefly unavailable" (503 service-unavailable, retry soon), "the database or
// its disk is full" (503 storage-full, until an operator frees space) and everything else (a fault
// in our code: 500). The cause is named in words for the log, with the store and the operation
// that met it, and a failed ROLLBACK is kept beside the error that caused it, never instead.
import type { Store } from './store.ts';

export type FaultKind = 'unavailable' | 'full';

export interface DatabaseFault {
  kind: FaultKind;
  /** The cause in words, for the log: `statement timeout`, `connection refused`, ... */
  cause: string;
}

// PostgreSQL SQLSTATEs (Appendix A of its manual) that say nothing about the request itself.
const POSTGRES_STATES: Record<string, DatabaseFault> = {
  '57P01': { kind: 'unavailable', cause: 'database shutting down (administrator command)' },
  '57P02': { kind: 'unavailable', cause: 'database crashed' },
  '57P03': { kind: 'unavailable', cause: 'database not accepting connections (starting up or shutting down)' },
  '57014': { kind: 'unavailable', cause: 'statement timeout' },
  '25P03': { kind: 'unavailable', cause: 'idle in transaction timeout' },
  '53300': { kind: 'unavailable', cause: 'too many connections' },
  '53200': { kind: 'unavailable', cause: 'database out of memory' },
  '55P03': { kind: 'unavailable', cause: 'lock not available' },
  '53100': { kind: 'full', cause: 'database or disk is full' },
};

// Socket errors a lost or refused connection produces.
const SOCKET_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection lost',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'database host unreachable',
  ENOTFOUND: 'database host does not resolve',
  EAI_AGAIN: 'database host does not resolve',
};

// node-postgres reports its own time-outs and lost connections by message only.
const PG_MESSAGES: [RegExp, string][] = [
  [/^Query read timeout$/, 'query timeout (no answer from the database)'],
  [/timeout exceeded when trying to connect/, 'connection pool acquire timeout'],
  [/Connection terminated due to connection timeout/, 'connection timed out'],
  [/Connection terminated/, 'connection lost'],
  [/not queryable|Client was closed/, 'connection lost'],
];

// SQLite primary result codes (the low byte of an extended code).
const SQLITE_CODES: Record<number, DatabaseFault> = {
  13: { kind: 'full', cause: 'database or disk is full' },
  5: { kind: 'unavailable', cause: 'database is locked (busy timeout)' },
  6: { kind: 'unavailable', cause: 'database table is locked' },
  10: { kind: 'unavailable', cause: 'disk I/O error' },
  14: { kind: 'unavailable', cause: 'unable to open the database file' },
};

/** The fault a database error is, or undefined when it is not one (then it is a fault of ours). */
export function classifyDatabaseError(error: unknown): DatabaseFault | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') return SQLITE_CODES[errcode & 0xff];
  if (typeof code === 'string') {
    const state = POSTGRES_STATES[code];
    if (state) return state;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return { kind: 'unavailable', cause: `connection exception (${code})` };
    if (SOCKET_CODES[code]) return { kind: 'unavailable', cause: SOCKET_CODES[code] };
  }
  if (typeof message === 'string') {
    for (const [pattern, cause] of PG_MESSAGES) if (pattern.test(message)) return { kind: 'unavailable', cause };
  }
  return undefined;
}

/** Where a database error was met: the store's engine and the operation (`findings.write`). */
export interface FaultSite {
  store: Store['engine'];
  operation: string;
}

const sites = new WeakMap<object, FaultSite>();
const rollbacks = new WeakMap<object, unknown>();

/** The innermost operation that met `error`, if a store reported it. */
export const faultSiteOf = (error: unknown): FaultSite | undefined => (isObject(error) ? sites.get(error) : undefined);

/** The error a ROLLBACK after `error` threw, kept for the log. */
export const rollbackErrorOf = (error: unknown): unknown => (isObject(error) ? rollbacks.get(error) : undefined);

/** The log fields of a store error: its cause in words, the store and operation that met it, a failed ROLLBACK after it. */
export function faultLogFields(error: unknown): { cause?: string; store?: string; operation?: string; rollbackErr?: unknown } {
  const site = faultSiteOf(error);
  const rollbackErr = rollbackErrorOf(error);
  return {
    ...(classifyDatabaseError(error) ? { cause: classifyDatabaseError(error)!.cause } : {}),
    ...(site ? { store: site.store, operation: site.operation } : {}),
    ...(rollbackErr === undefined ? {} : { rollbackErr }),
  };
}

/**
 * Runs a ROLLBACK after `cause`: its own failure (the connection is gone, or SQLite already rolled
 * back, as it does on a full disk) is recorded beside `cause`, never thrown instead of it.
 * Resolves false when the rollback failed (the connection is then not fit for reuse).
 */
export async function rollBackAfter(cause: unknown, rollback: () => unknown): Promise<boolean> {
  try {
    await rollback();
    return true;
  } catch (rollbackError) {
    if (isObject(cause) && !rollbacks.has(cause)) rollbacks.set(cause, rollbackError);
    return false;
  }
}

/** The synchronous form of rollBackAfter, for node:sqlite. */
export function rollBackAfterSync(cause: unknown, rollback: () => void): boolean {
  try {
    rollback();
    return true;
  } catch (rollbackError) {
    if (isObject(cause) && !rollbacks.has(cause)) rollbacks.set(cause, rollbackError);
    return false;
  }
}

/**
 * The store with every operation's errors marked with where they were met (the innermost
 * operation wins, so a finding write inside a transaction names `findings.write`).
 */
export function reportingFaultSites(store: Store): Store {
  const mark = (operation: string) => (error: unknown) => {
    if (isObject(error) && !sites.has(error)) sites.set(error, { store: store.engine, operation });
    throw error;
  };
  const group = <G extends object>(name: string, methods: G): G =>
    Object.fromEntries(
      Object.entries(methods).map(([key, method]) => [
        key,
        typeof method === 'function'
          ? (...args: unknown[]) => {
              const result = (method as (...a: unknown[]) => unknown).apply(methods, args);
              return result instanceof Promise ? result.catch(mark(`${name}.${key}`)) : result;
            }
          : method,
      ]),
    ) as G;
  return Object.assign(Object.create(store) as Store, {
    policies: group('policies', store.policies),
    findings: group('findings', store.findings),
    webhooks: group('webhooks', store.webhooks),
    idempotency: group('idempotency', store.idempotency),
    outbox: group('outbox', store.outbox),
    transaction: <T>(fn: (tx: Store) => Promise<T>) => store.transaction((tx) => fn(reportingFaultSites(tx))).catch(mark('transaction')),
    ...(store.rateLimits ? { rateLimits: group('rateLimits', store.rateLimits) } : {}),
  });
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
