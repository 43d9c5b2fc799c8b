// The reference server as a contract-kit target: started in-process through its public factory
// (port 0, a fresh database of the suite's store, known keys, development mode so loopback
// webhooks are allowed, retries compressed with the SECMON_RETRY_SCALE setting unless asked not to).
import type { Config } from '../../../server/config.ts';
import { type RunningServer, startServer } from '../../../server/server.ts';
import { testDatabase } from '../../../test/support/database.ts';
import type { KitOptions } from '../src/kit/context.ts';
import { KIT_RATE_LIMIT, READER_KEY, referenceConfig, WRITER_KEY } from './reference-config.ts';

export { KIT_RATE_LIMIT, READER_KEY, WRITER_KEY };

export interface ReferenceTarget {
  server: RunningServer;
  kit: KitOptions;
}

/**
 * `retryScale` compresses the webhook retry schedule (the default, 0.001, retries in milliseconds);
 * 1 is the documented schedule, for the check that times the first retry. `overrides` sets other
 * configuration (a low failed-authentication limit).
 */
export async function startReferenceTarget(
  rateLimitPerMinute = KIT_RATE_LIMIT,
  retryScale = 0.001,
  overrides: Partial<Config> = {},
): Promise<ReferenceTarget> {
  const config = referenceConfig(await testDatabase(), rateLimitPerMinute, retryScale, overrides);
  const server = await startServer(config);
  return { server, kit: { baseUrl: server.url, apiKey: WRITER_KEY, readKey: READER_KEY, profile: 'stateful' } };
}

/**
 * Reference targets for a file's concurrent tests, started as they are first needed, at most `size`:
 * a test holds one alone while it runs (deliveries it provokes reach only its own webhooks), and
 * the next test waiting takes it over.
 */
export function targetPool(size: number) {
  const started: Promise<ReferenceTarget>[] = [];
  const idle: ReferenceTarget[] = [];
  const waiting: ((target: ReferenceTarget) => void)[] = [];
  const acquire = (): Promise<ReferenceTarget> => {
    const free = idle.pop();
    if (free) return Promise.resolve(free);
    if (started.length < size) return started[started.push(startReferenceTarget()) - 1]!;
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (target: ReferenceTarget) => {
    const next = waiting.shift();
    if (next) next(target);
    else idle.push(target);
  };
  return {
    async use<T>(work: (target: ReferenceTarget) => Promise<T>): Promise<T> {
      const target = await acquire();
      try {
        return await work(target);
      } finally {
        release(target);
      }
    },
    async close(): Promise<void> {
      const targets = await Promise.allSettled(started);
      await Promise.all(targets.map((target) => (target.status === 'fulfilled' ? target.value.server.close() : undefined)));
    },
  };
}

const COLLECTIONS = ['/v1/policies', '/v1/findings', '/v1/webhooks'];

/** Every item of every collection on the target, by id, with its name or title. */
export async function contents(baseUrl: string): Promise<string[]> {
  const items: string[] = [];
  for (const collection of COLLECTIONS) {
    let cursor: string | null = null;
    do {
      const query: string = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await fetch(`${baseUrl}${collection}?${query}`, { headers: { authorization: `Bearer ${WRITER_KEY}` } });
      const page = (await response.json()) as {
        data: { id: string; name?: string; title?: string; url?: string }[];
        next_cursor: string | null;
      };
      items.push(...page.data.map((item) => `${item.id} ${item.name ?? item.title ?? item.url}`));
      cursor = page.next_cursor;
    } while (cursor);
  }
  return items.sort();
}
