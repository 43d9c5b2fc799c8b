// globalSetup of the `postgres` test project: one throw-away cluster for the whole run, each test
// server then gets a database of its own in it (test/support/postgres.ts).
import type { TestProject } from 'vitest/node';
import { startCluster } from '../../scripts/postgres/cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's superuser URL; absent outside the postgres project. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
