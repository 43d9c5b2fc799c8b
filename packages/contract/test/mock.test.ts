// The kit against the Prism mock (stateless profile), started through packages/mock/src/prism.ts. Checks that
// need state are skipped by the profile; what the contract requires but Prism cannot do is listed
// in prism-known-limits.json (also usable with `npm run contract -- --known-limits`), shown in the
// coverage table, and a limit declared for one operation fails the run if it starts passing.
import { readFileSync } from 'node:fs';
import { type MockServer, startMock } from 'secmon-mock/src/prism';
import { afterAll } from 'vitest';
import type { KnownLimit } from '../src/kit/results.ts';
import { defineContractSuite } from './suite.ts';

let mock: MockServer | undefined;

afterAll(async () => {
  await mock?.stop();
});

const knownLimits = JSON.parse(readFileSync(new URL('./prism-known-limits.json', import.meta.url), 'utf8')) as KnownLimit[];

defineContractSuite({
  name: 'Prism mock (stateless)',
  profile: 'stateless',
  hasReadKey: true,
  knownLimits,
  target: async () => {
    mock = await startMock();
    return { baseUrl: mock.url, apiKey: 'mock-writer-key', readKey: 'mock-reader-key', profile: 'stateless' };
  },
});
