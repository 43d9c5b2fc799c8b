// The kit against the Prism mock (stateless profile), the process's static mock (test/support/static-mock.ts). Checks that
// need state are skipped by the profile; what the contract requires but Prism cannot do is listed
// in prism-known-limits.json (also usable with `npm run contract -- --known-limits`), shown in the
// coverage table, and a limit declared for one operation fails the run if it starts passing.
import { readFileSync } from 'node:fs';
import { staticMock } from '../../../test/support/static-mock.ts';
import type { KnownLimit } from '../src/kit/results.ts';
import { defineContractSuite } from './suite.ts';

const knownLimits = JSON.parse(readFileSync(new URL('./prism-known-limits.json', import.meta.url), 'utf8')) as KnownLimit[];

defineContractSuite({
  name: 'Prism mock (stateless)',
  profile: 'stateless',
  hasReadKey: true,
  knownLimits,
  target: async () => {
    const mock = await staticMock();
    return { baseUrl: mock.url, apiKey: 'mock-writer-key', readKey: 'mock-reader-key', profile: 'stateless' };
  },
});
