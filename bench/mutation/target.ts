// The target every kit run of the benchmark judges: the reference server started from the current
// folder's sources (Stryker's sandbox, or the repository when the check map is built), on a fresh
// SQLite file, with the keys and seed the kit is given.
import type { KitOptions } from '../../packages/contract/src/kit/options.ts';
import { type ServerProcess, spawnServer } from '../../scripts/server-process.ts';

export const WRITER = 'mutation-writer-5c1e';
export const READER = 'mutation-reader-8a2f';
/** The seed of the kit's generated inputs. */
export const KIT_SEED = process.env.SECMON_MUTATION_SEED ?? '1';

/** The reference server on the database `db`, with `env` added (the active mutant, a coverage folder). */
export function startTarget(db: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return spawnServer({
    SECMON_MODE: 'development',
    SECMON_DB: db,
    SECMON_API_KEYS: `${WRITER}:read+write,${READER}:read`,
    // Small enough that the 429 probe uses it up in a second or two, large enough that the kit's own
    // requests never wait for it.
    SECMON_RATE_LIMIT: '2000',
    ...env,
  });
}

/** What the kit is run with against the target at `baseUrl`, as the command line gives it. */
export const kitOptions = (baseUrl: string): KitOptions => ({
  baseUrl,
  apiKey: WRITER,
  readKey: READER,
  profile: 'stateful',
  events: 'check',
  seed: Number(KIT_SEED),
});
