// A fresh, empty database in the `postgres` project's cluster, for one test server or suite, and
// two stores on one, as two server instances open it.
import { afterEach, beforeEach, inject } from 'vitest';
import { createDatabase } from '../../scripts/postgres/cluster.ts';
import { openPostgresStore } from '../../server/store/postgres/store.ts';
import type { Store } from '../../server/store/store.ts';

export function freshPostgresDatabase(): Promise<string> {
  const admin = inject('postgresUrl');
  if (!admin) throw new Error('no PostgreSQL cluster: this suite runs in the postgres project (vitest.config.ts)');
  return createDatabase(admin);
}

/** Before each test, two stores (two pools) on one fresh database, handed to `take`; closed after the test. */
export function twoInstancesPerTest(take: (database: string, first: Store, second: Store) => void): void {
  let opened: Store[] = [];
  beforeEach(async () => {
    const database = await freshPostgresDatabase();
    opened = await Promise.all([openPostgresStore(database), openPostgresStore(database)]);
    take(database, opened[0]!, opened[1]!);
  });
  afterEach(() => Promise.all(opened.map((store) => store.close())));
}
