// The suite the CLI runs (`npm run contract`): its target comes from the environment the CLI sets.
// Named *.kit.ts so plain `vitest` (test/**/*.test.ts) never collects it without a target.
import { readFileSync } from 'node:fs';
import { defineContractSuite } from './suite.ts';
import type { Profile } from './context.ts';
import type { KnownLimit } from './runner.ts';

const env = process.env;
const baseUrl = env.CONTRACT_BASE_URL;
const apiKey = env.CONTRACT_API_KEY;
if (!baseUrl || !apiKey) throw new Error('the contract kit needs CONTRACT_BASE_URL and CONTRACT_API_KEY (run it with npm run contract)');
const profile = (env.CONTRACT_PROFILE ?? 'stateful') as Profile;
const readKey = env.CONTRACT_READ_KEY || undefined;
const number = (value: string | undefined) => (value ? Number(value) : undefined);

defineContractSuite({
  name: `contract kit against ${baseUrl} (${profile})`,
  profile,
  hasReadKey: readKey !== undefined,
  ...(env.CONTRACT_RESULTS_FILE ? { resultsFile: env.CONTRACT_RESULTS_FILE } : {}),
  knownLimits: env.CONTRACT_KNOWN_LIMITS ? (JSON.parse(readFileSync(env.CONTRACT_KNOWN_LIMITS, 'utf8')) as KnownLimit[]) : [],
  target: () => ({
    baseUrl,
    apiKey,
    profile,
    ...(readKey ? { readKey } : {}),
    ...(number(env.CONTRACT_SEED) !== undefined ? { seed: number(env.CONTRACT_SEED)! } : {}),
    ...(number(env.CONTRACT_CASES) !== undefined ? { cases: number(env.CONTRACT_CASES)! } : {}),
    ...(number(env.CONTRACT_RATE_PROBE_MAX) !== undefined ? { rateProbeMaxQuota: number(env.CONTRACT_RATE_PROBE_MAX)! } : {}),
  }),
});
