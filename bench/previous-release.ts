// The previous release of the reference server, for benchmarks that set today's server beside it in
// one run: the commit's tree taken from git once into artifacts/ (Node strips types only outside
// node_modules), with the production dependencies its own lockfile names and its own patch applied,
// so it runs as it shipped.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../scripts/pipeline.ts';

/** The release the packages and the document were last published as, before the application core. */
export const PREVIOUS_RELEASE = { version: '1.1.0', commit: 'f1b9a6ba8ba2cfbc525c0dbc28f5aaf0b137be22' } as const;

/** The folder holding the previous release's tree, ready to run `node server/main.ts` in; built on first use (about a minute). */
export function previousReleaseTree(log: (message: string) => void): string {
  const dir = join(root, 'artifacts/previous-release', PREVIOUS_RELEASE.commit);
  const ready = join(dir, '.ready');
  if (existsSync(ready)) return dir;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  log(
    `previous release ${PREVIOUS_RELEASE.version}: extracting ${PREVIOUS_RELEASE.commit.slice(0, 7)} from git and installing its dependencies (once)…`,
  );
  try {
    const tree = execFileSync('git', ['archive', '--format=tar', PREVIOUS_RELEASE.commit], { cwd: root, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', partial], { input: tree });
  } catch (error) {
    throw new Error(
      `the previous release (${PREVIOUS_RELEASE.commit}) is read from this repository's git history: ${(error as Error).message}`,
    );
  }
  // Its scripts would run its own dev tooling; the patch it shipped with is applied by today's patch-package.
  execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: partial,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync(join(root, 'node_modules/.bin/patch-package'), [], { cwd: partial, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  writeFileSync(ready, `${PREVIOUS_RELEASE.version}\n`);
  return dir;
}
