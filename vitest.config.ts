import { defineConfig } from 'vitest/config';
import SlowFirst from './test/support/slow-first.ts';

// Suites that reach the store only through the server's public factory run twice: on embedded
// SQLite, and on PostgreSQL in a throw-away cluster (test/support/postgres-setup.ts). Tests of
// SQLite's own modules, pure functions and the toolchain run once.
const ON_BOTH_STORES = ['test/server/**/*.test.ts', 'test/webhooks/**/*.test.ts', 'test/contract/reference.test.ts'];
const SQLITE_ONLY = [
  'test/server/config.test.ts',
  'test/server/domain.test.ts',
  'test/server/list-plans.test.ts',
  'test/server/idempotency-store.test.ts',
  'test/server/conditional-writes.test.ts',
  'test/server/persistence.test.ts',
  'test/server/single-writer.test.ts',
  'test/server/storage-full.test.ts',
  'test/server/fault-causes.test.ts',
  'test/server/startup-errors.test.ts',
  'test/webhooks/outbox.test.ts',
  'test/webhooks/schedule.test.ts',
  'test/webhooks/endpoints.test.ts',
  'test/webhooks/crash.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start servers and child processes on their own ports and spend much of their time
    // waiting on them: three workers keep the 2 cores busy.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/multi-instance/**', 'test/store/**', 'test/support/**'] } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...ON_BOTH_STORES, 'test/multi-instance/**/*.test.ts', 'test/store/**/*.test.ts', 'test/support/**/*.test.ts'],
          exclude: SQLITE_ONLY,
          globalSetup: ['test/support/postgres-setup.ts'],
        },
      },
    ],
  },
});
