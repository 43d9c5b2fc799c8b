// What Stryker runs for each mutant (its `command` runner, in its sandbox copy of the repository):
// the reference server as built from the sandbox, with the mutant Stryker names active, judged by
// the contract kit from outside. Exit 0: the kit passed, the mutant survived; anything else: killed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer } from '../../scripts/server-process.ts';

const WRITER = 'mutation-writer-5c1e';
const READER = 'mutation-reader-8a2f';
const dir = mkdtempSync(join(tmpdir(), 'secmon-mutant-'));
const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
const server = await spawnServer({
  SECMON_MODE: 'development',
  SECMON_DB: join(dir, 'secmon.db'),
  SECMON_API_KEYS: `${WRITER}:read+write,${READER}:read`,
  // Small enough that the 429 probe uses it up in a second or two, large enough that the kit's own
  // requests never wait for it.
  SECMON_RATE_LIMIT: '2000',
  ...(mutant === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: mutant }),
}).catch((error: Error) => {
  // A mutant that stops the server from starting is killed: an implementation that does not start.
  process.stderr.write(`${error.message}\n`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(3);
});
const kit = spawnSync(
  process.execPath,
  [
    // Another build of the kit (a previous release's, to compare kill rates on one sample) when given.
    process.env.SECMON_MUTATION_KIT ?? 'packages/contract/src/cli.ts',
    '--base-url',
    server.url,
    '--api-key',
    WRITER,
    '--read-key',
    READER,
    '--seed',
    process.env.SECMON_MUTATION_SEED ?? '1',
  ],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 },
);
await server.kill();
rmSync(dir, { recursive: true, force: true });
if (kit.status !== 0) {
  // What killed it, for the report's reader: the kit's violations, without the coverage table.
  const violations = kit.stdout.split('\n').filter((line) => /contract violation|›|rule /.test(line));
  process.stderr.write(`${violations.slice(0, 12).join('\n')}\n${kit.stderr.slice(0, 2000)}`);
}
process.exit(kit.status ?? 1);
