// The kit against the Prism mock (stateless profile), started through mock/prism.ts. Checks that
// need state are skipped by the profile; what the contract requires but Prism cannot do is listed
// below as known limits, shown in the coverage table, and fails the run if it ever starts passing.
import { afterAll } from 'vitest';
import { startMock, type MockServer } from '../../mock/prism.ts';
import { defineContractSuite } from './kit/suite.ts';
import type { KnownLimit } from './kit/runner.ts';
import { buildModel } from './kit/spec.ts';
import { loadDocument } from '../../lib/document.ts';

let mock: MockServer | undefined;

afterAll(async () => {
  await mock?.stop();
});

const firstList = buildModel(loadDocument()).operations.find((op) => op.kind === 'list' && op.responses.has('429'))!;

const knownLimits: KnownLimit[] = [
  { check: 'unknown-key-401', subject: '*', reason: "Prism's bearer check accepts any token (brief §7)" },
  { check: 'read-only-key-403', subject: '*', reason: 'Prism knows no keys and no scopes, so it cannot refuse a read-only key' },
  { check: 'rate-limit-429', subject: firstList.label, reason: 'the mock sends the documented RateLimit headers but enforces no quota' },
];

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
