// The store a conformance test runs on: the project decides (vitest.config.ts). In the `postgres`
// project a fresh database in its throw-away cluster, elsewhere a SQLite database in memory.
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres/store.ts';
import { openSqliteStore, sqliteConnection } from '../../server/store/sqlite/store.ts';
import type { Store } from '../../server/store/store.ts';
import { freshPostgresDatabase } from '../support/postgres.ts';

export interface TestStore {
  store: Store;
  /** Runs portable SQL on the store's database, for what the Store interface does not show (rows a rule removed). */
  sql(text: string): Promise<Record<string, unknown>[]>;
}

export async function openTestStore(): Promise<TestStore> {
  if (!inject('postgresUrl')) {
    const store = openSqliteStore(':memory:');
    return { store, sql: async (text) => sqliteConnection(store)!.prepare(text).all() };
  }
  const url = await freshPostgresDatabase();
  const store = await openPostgresStore(url);
  return {
    store,
    async sql(text) {
      const client = new pg.Client(url);
      await client.connect();
      try {
        return (await client.query(text)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    },
  };
}
