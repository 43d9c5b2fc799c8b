// A fresh, empty database in the `postgres` project's cluster, for one test server or suite.
import { inject } from 'vitest';
import { createDatabase } from '../../scripts/postgres/cluster.ts';

export function freshPostgresDatabase(): Promise<string> {
  const admin = inject('postgresUrl');
  if (!admin) throw new Error('no PostgreSQL cluster: this suite runs in the postgres project (vitest.config.ts)');
  return createDatabase(admin);
}
