// Which store a database setting names: a postgres:// URL is PostgreSQL (several instances may
// share it), anything else is the embedded SQLite file (or ':memory:').
import type { DatabaseTimeouts } from '../config.ts';
import { openPostgresStore } from './postgres/store.ts';
import { openSqliteStore } from './sqlite/store.ts';
import type { Store } from './store.ts';

export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

/** PostgreSQL could not be used at start-up; `reason` says why in the setting's terms. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  readonly reason: string;
  constructor(reason: string, cause: unknown) {
    super(reason, { cause });
    this.reason = reason;
  }
}

// SQLSTATEs and socket codes a wrong setting produces; anything else keeps its own error.
const UNAVAILABLE: Record<string, string> = {
  ECONNREFUSED: 'refuses connections: is PostgreSQL running there?',
  ENOTFOUND: 'names a host that does not resolve',
  EAI_AGAIN: 'names a host that does not resolve',
  ETIMEDOUT: 'does not answer',
  '28P01': 'rejects the user or password',
  '28000': 'rejects the user or password',
  '3D000': 'names a database that does not exist: create it first (createdb)',
};

export async function openStore(database: string, timeouts?: DatabaseTimeouts): Promise<Store> {
  if (!isPostgresUrl(database)) return openSqliteStore(database);
  try {
    return await openPostgresStore(database, { statementTimeoutMs: timeouts?.statementMs, acquireTimeoutMs: timeouts?.acquireMs });
  } catch (error) {
    const reason = UNAVAILABLE[String((error as { code?: string }).code)];
    throw reason ? new DatabaseUnavailableError(reason, error) : error;
  }
}

/** The setting as logs and messages may show it: a URL's password is replaced. */
export function describeDatabase(database: string): string {
  if (!isPostgresUrl(database)) return database;
  try {
    const url = new URL(database);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'an unparseable postgres:// URL';
  }
}
