import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowFirst from './test/support/slow-first.ts';

// The workspace packages export their TypeScript under the `secmon-source` condition: the tests resolve
// them there, and so does every Node process a test starts (NODE_OPTIONS, as `.npmrc` gives npm's).
const SOURCE = ['secmon-source'];
const NODE_OPTIONS = process.env.NODE_OPTIONS?.includes('--conditions=secmon-source')
  ? process.env.NODE_OPTIONS
  : [process.env.NODE_OPTIONS, '--conditions=secmon-source'].filter(Boolean).join(' ');

// Which store a test file runs on is decided by where it lives (each package's tests in
// packages/<name>/test/, the repository's suites in test/):
// - test/unit/: pure modules (domain rules, the retry schedule, endpoint health, fault
//   classification); no server, no store (`npm run test:unit`).
// - a folder named `sqlite/` or `postgres/` (test/store/postgres/, test/server/sqlite/, ...):
//   that engine only.
// - everything else that reaches a store runs on embedded SQLite; on PostgreSQL too, in a
//   throw-away cluster (test/support/postgres-setup.ts), runs the store conformance suite
//   (test/store/, the interface both engines implement): the HTTP layer above the store is the
//   same code on both.
// - the kit's whole run against the reference server, a test per check, runs on PostgreSQL; on
//   SQLite the packed kit's whole run against `npm start` (test/packages/contract.test.ts) and the
//   kit CLI's runs (packages/contract/test/pipeline.test.ts) prove the same from outside, and the
//   suite runs there again in the scenarios.
// - a file named `*.scenario.test.ts` is a big scenario (a whole packed-kit run per situation, a
//   run on the real clock for minutes, wall-clock deadlines under load, several server processes):
//   not part of `npm test`, run by `npm run bench:scenarios` with the server and webhook suites again
//   on PostgreSQL; the rules each exercises are proven by a faster test in `npm test`.
const SCENARIOS = '**/*.scenario.test.ts';
const KIT_ON_REFERENCE = 'packages/contract/test/reference.test.ts';
const ON_POSTGRES_IN_TEST = ['test/store/**/*.test.ts', KIT_ON_REFERENCE];
const ON_POSTGRES_IN_SCENARIOS = [
  'test/server/**/*.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/multi-instance/instances.scenario.test.ts',
];

// Every Node process a test starts (the kit's CLI, the gate, servers, npm) keeps V8's compiled code
// of the modules it loads in one folder, so the next process loading them skips compiling: about half
// the start-up CPU of a CLI started dozens of times a run.
const NODE_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE ?? fileURLToPath(new URL('node_modules/.cache/node-compile', import.meta.url));

export default defineConfig({
  resolve: { conditions: [...SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [...SOURCE, ...defaultServerConditions] } },
  test: {
    env: { NODE_OPTIONS, NODE_COMPILE_CACHE },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A page updates after its request answers, seconds later on a loaded machine; expect.poll's own
    // 1 s limit made the browser suites fail under load where nothing was wrong.
    expect: { poll: { timeout: 10_000 } },
    // The suite is bound by CPU (the machine 93 % busy over a run, bench:suite): a worker beyond one
    // per core and one more only competes for it. On 2 cores, one commit, one run after the other,
    // three workers took 384 s and four 409 s (five once pushed tests past time limits). Capped, so a
    // machine of many cores does not start that many servers and browsers at once.
    maxWorkers: Math.min(availableParallelism() + 1, 8),
    // Every file stops the servers and processes it starts and resets what it changes, so a worker
    // keeps its module cache from one file to the next instead of importing and transforming the
    // server, the kit and the document again for each: a third less CPU for the whole suite.
    isolate: false,
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/**/postgres/**', 'test/multi-instance/**', 'test/support/**', KIT_ON_REFERENCE, SCENARIOS],
          // The package tests' files share one build and pack of the packages per run.
          globalSetup: ['test/packages/tarballs-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...ON_POSTGRES_IN_TEST, 'test/support/**/*.test.ts'],
          exclude: ['test/**/sqlite/**', SCENARIOS],
          globalSetup: ['test/support/postgres-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'scenarios',
          include: [SCENARIOS, KIT_ON_REFERENCE],
          exclude: [...configDefaults.exclude, ...ON_POSTGRES_IN_SCENARIOS],
          globalSetup: ['test/packages/tarballs-setup.ts'],
          // Wall-clock deadlines under load: after the suites on PostgreSQL, not beside them.
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'scenarios-postgres',
          include: ON_POSTGRES_IN_SCENARIOS,
          exclude: ['test/**/sqlite/**'],
          globalSetup: ['test/support/postgres-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
