// The database a test server gets: a fresh PostgreSQL database when the suite runs in the
// `postgres` project (vitest.config.ts), an in-memory SQLite database otherwise. Suites written
// against the public factory run unchanged on both stores.
import { inject } from 'vitest';
import { freshPostgresDatabase } from './postgres.ts';

export const testEngine = (): 'sqlite' | 'postgres' => (inject('postgresUrl') ? 'postgres' : 'sqlite');

export function testDatabase(): Promise<string> {
  return testEngine() === 'postgres' ? freshPostgresDatabase() : Promise.resolve(':memory:');
}
