// A server reads the Authorization header with one parser, so a wrong one misreads several
// spellings at once: the check sends them all before judging, and its one failure lists each
// misread spelling under the rule it breaks, with a replay that reproduces the first on its own.
import { afterAll, expect, it } from 'vitest';
import { requestHeader } from './fault-dsl.ts';
import { failureUnder } from './prove.ts';
import { targetPool } from './reference-target.ts';

const targets = targetPool(1);
afterAll(() => targets.close());

it('a scheme read case-sensitively and any text after the token taken: one failure naming both rules, every misread spelling listed', async () => {
  // `Bearer` only, and the first word after it as the key.
  const misreading = requestHeader('authorization', (value) =>
    /^Bearer /.test(value) ? value.replace(/^(Bearer \S+) .*$/, '$1') : /^bearer /i.test(value) ? 'Bearer not-a-key' : value,
  );
  const failure = await targets.use((target) =>
    failureUnder(target, misreading, 'listPolicies (GET /v1/policies)', 'credential-spellings', {}, true),
  );
  expect(failure.split('\n')[0]).toContain('(breaks rule security.bearerAuth.1, authentication.3; also authentication.1)');
  expect(failure).toContain('"bearer <api-key>" (the scheme in lower case): 401\n');
  expect(failure).toContain('"BEARER <api-key>" (the scheme in upper case): 401\n');
  expect(failure).toContain('"Bearer <api-key> <api-key>" (a second word after the key): 200\n');
  expect(failure).not.toContain('three spaces');
}, 120_000);
