// The reference server's configuration as a contract-kit target: known keys, a quota the kit never
// waits for, development mode so loopback webhooks are allowed, retries compressed by `retryScale`.
// Free of any test framework, so a program outside a test run (the stand-in) starts the same server.
import { type Config, parseApiKeys, testConfig } from '../../../server/config.ts';

export const WRITER_KEY = 'contract-writer-3b8f1d';
export const READER_KEY = 'contract-reader-9c2e4a';

/** High enough that the kit never waits; the 429 probe gets its own low-quota server. */
export const KIT_RATE_LIMIT = 100_000;

export function referenceConfig(
  database: string,
  rateLimitPerMinute = KIT_RATE_LIMIT,
  retryScale = 0.001,
  overrides: Partial<Config> = {},
): Config {
  const config = testConfig({
    apiKeys: parseApiKeys(`${WRITER_KEY}:read+write,${READER_KEY}:read`),
    usingDefaultKeys: false,
    rateLimitPerMinute,
    database,
    ...overrides,
  });
  config.delivery = { ...config.delivery, retryScale };
  return config;
}
