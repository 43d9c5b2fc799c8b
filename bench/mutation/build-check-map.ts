// Builds the check map: each check of the kit run alone against a fresh reference server that
// records V8's coverage, and for each check the mutated files it ran code in beyond what a server
// that only starts (and is stopped) runs. The server must end by SIGTERM, its graceful shutdown,
// for V8 to write the coverage. Kept in artifacts/mutation/check-map.json until its key changes.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CHECK_NAMES } from '../../packages/contract/src/kit/registry.ts';
import { runKit } from '../../packages/contract/src/kit/runner.ts';
import { type CheckMap, mapKey, mapSources, readCheckMap } from './check-map.ts';
import { filesReached, type ScriptCoverage } from './coverage.ts';
import { sourceFiles } from './sources.ts';
import { KIT_SEED, kitOptions, startTarget } from './target.ts';

/** The coverage V8 wrote in `dir`, one report per thread. */
function readCoverage(dir: string): ScriptCoverage[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { result: ScriptCoverage[] }).result);
}

/** The coverage of a reference server through `during` (given its URL), from start to a graceful stop. */
async function coverageOf(work: string, name: string, during: (url: string) => Promise<void>): Promise<ScriptCoverage[]> {
  const dir = join(work, name);
  const server = await startTarget(join(dir, 'secmon.db'), { NODE_V8_COVERAGE: join(dir, 'coverage') });
  try {
    await during(server.url);
  } finally {
    await server.kill('SIGTERM');
  }
  if (server.child.exitCode !== 0) throw new Error(`the server stopped for the ${name} run exited with ${server.child.exitCode}, not 0`);
  return readCoverage(join(dir, 'coverage'));
}

/** The map of the sources under `root` now: the stored one if its key matches, else built again and stored. */
export async function ensureCheckMap(root: string, path: string, say: (line: string) => void): Promise<CheckMap> {
  const key = mapKey(mapSources(root), KIT_SEED);
  const stored = readCheckMap(path);
  if (stored?.key === key) return stored;
  say(
    `check map: ${stored ? 'the sources changed' : 'none yet'}; running each of the kit's ${CHECK_NAMES.length} checks alone against a server that records coverage`,
  );
  const files = sourceFiles(root);
  const work = mkdtempSync(join(tmpdir(), 'secmon-check-map-'));
  try {
    const baseline = await coverageOf(work, 'baseline', async () => undefined);
    const reached = new Map<string, string[]>();
    for (const [index, check] of CHECK_NAMES.entries()) {
      const started = performance.now();
      let outcome = '';
      const coverage = await coverageOf(work, check, async (url) => {
        const run = await runKit(kitOptions(url), { only: (planned) => planned.check === check });
        const failed = run.results.filter((result) => result.outcome === 'failed').length;
        outcome = `${run.results.length} planned${failed > 0 ? `, ${failed} FAILED against the unmutated server` : ''}`;
      });
      const hit = filesReached(coverage, baseline, root, files);
      for (const file of hit) reached.set(file, [...(reached.get(file) ?? []), check]);
      say(
        `check map: [${index + 1}/${CHECK_NAMES.length}] ${check}  ${((performance.now() - started) / 1000).toFixed(1)} s  ${outcome}; reaches ${hit.length} of ${files.length} files`,
      );
    }
    const map: CheckMap = { key, checks: [...CHECK_NAMES], files: Object.fromEntries([...reached].sort(([a], [b]) => a.localeCompare(b))) };
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(map, null, 2)}\n`);
    const unreached = files.filter((file) => !reached.has(file));
    say(
      `check map: written to ${path}; ${unreached.length} files no check reaches beyond start-up run the whole kit: ${unreached.join(', ') || 'none'}`,
    );
    return map;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
