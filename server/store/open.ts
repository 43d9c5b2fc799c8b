// Which store a database setting names: a postgres:// URL is PostgreSQL (several instances may
// share it), anything else is the embedded SQLite file (or ':memory:').
import { openPostgresStore } from './postgres/store.ts';
import { openSqliteStore } from './sqlite/store.ts';
import type { Store } from './store.ts';

export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

export function openStore(database: string): Promise<Store> {
  return isPostgresUrl(database) ? openPostgresStore(database) : Promise.resolve(openSqliteStore(database));
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
