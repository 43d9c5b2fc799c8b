// What Stryker runs for each mutant (its `command` runner, in its sandbox copy of the repository):
// the reference server as built from the sandbox, with the mutant Stryker names active, judged by
// the contract kit from outside. Exit 0: the kit passed, the mutant survived; anything else: killed.
// Given a check map (SECMON_MUTATION_CHECK_MAP), only the checks that reach the mutant's file run;
// without one, or for a file it does not list, the whole kit does.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checksForFile, readCheckMap } from './check-map.ts';
import { findMutantFile } from './mutant-file.ts';
import { KIT_SEED, READER, startTarget, WRITER } from './target.ts';

const started = performance.now();
// Inside Stryker's sandbox (the current folder), which Stryker removes, so a mutant it stops at its
// time-out leaves no database behind.
const dir = mkdtempSync(join(process.cwd(), '.secmon-mutant-'));
const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
const mapPath = process.env.SECMON_MUTATION_CHECK_MAP;
const file = mutant !== undefined && mapPath ? findMutantFile(process.cwd(), mutant) : undefined;
const checks = mapPath ? checksForFile(readCheckMap(mapPath), file) : undefined;
/** Records the mutant's time and checks (one line each, so a run can tell them), then exits with `status`. */
function finish(status: number): never {
  if (mutant !== undefined && process.env.SECMON_MUTATION_TIMES)
    appendFileSync(
      process.env.SECMON_MUTATION_TIMES,
      `${JSON.stringify({ id: mutant, file: file ?? null, checks: checks ?? 'all', ms: Math.round(performance.now() - started), status })}\n`,
    );
  process.exit(status);
}
const server = await startTarget(join(dir, 'secmon.db'), mutant === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: mutant }).catch(
  (error: Error) => {
    // A mutant that stops the server from starting is killed: an implementation that does not start.
    process.stderr.write(`${error.message}\n`);
    rmSync(dir, { recursive: true, force: true });
    return finish(3);
  },
);
const kit = spawnSync(
  process.execPath,
  checks
    ? ['bench/mutation/run-checks.ts', server.url, checks.join(',')]
    : [
        // Another build of the kit (a previous release's, to compare kill rates on one sample) when given.
        process.env.SECMON_MUTATION_KIT ?? 'packages/contract/src/cli.ts',
        '--base-url',
        server.url,
        '--api-key',
        WRITER,
        '--read-key',
        READER,
        '--seed',
        KIT_SEED,
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
finish(kit.status ?? 1);
