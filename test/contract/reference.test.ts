// The kit against the reference server (stateful profile), started in-process through its public
// factory on port 0 with an in-memory database, known keys, loopback webhooks (development mode)
// and a compressed retry schedule.
import { parseApiKeys, testConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { afterAll } from 'vitest';
import { defineContractSuite } from './kit/suite.ts';

const WRITER = 'contract-writer-3b8f1d';
const READER = 'contract-reader-9c2e4a';
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.close();
});

defineContractSuite({
  name: 'reference server (stateful)',
  profile: 'stateful',
  hasReadKey: true,
  target: async () => {
    const config = testConfig({
      apiKeys: parseApiKeys(`${WRITER}:read+write,${READER}:read`),
      usingDefaultKeys: false,
      // High enough that the kit never waits; the 429 probe runs against its own low-quota server.
      rateLimitPerMinute: 100_000,
    });
    config.delivery = { ...config.delivery, retryScale: 0.001 };
    server = await startServer(config);
    return { baseUrl: server.url, apiKey: WRITER, readKey: READER, profile: 'stateful' };
  },
});
