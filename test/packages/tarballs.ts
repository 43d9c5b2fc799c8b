// The packed tarballs of one test run, shared by the package test files. Each file runs in its own
// worker process, so they agree through the run's folder (tarballs-setup.ts): the first to claim it
// builds and packs every package, the others wait for its list (or its error). Building once also
// keeps two workers from rewriting a package's dist/ at the same time.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { buildPackage, PACKAGES, type PackageName, packPackage } from '../../scripts/packages.ts';

export type Tarballs = Record<PackageName, string>;

let packed: Promise<Tarballs> | undefined;

/** Every package built from the current sources and packed, once per test run. */
export const packedTarballs = (): Promise<Tarballs> => (packed ??= packedOnce(inject('tarballsDir')));

async function packedOnce(dir: string): Promise<Tarballs> {
  const [listed, failed] = [join(dir, 'tarballs.json'), join(dir, 'failed.txt')];
  if (claim(join(dir, 'claimed'))) {
    try {
      writeAtomically(listed, JSON.stringify(await packAll(dir)));
    } catch (error) {
      writeAtomically(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
      throw error;
    }
  }
  while (!existsSync(listed)) {
    if (existsSync(failed)) throw new Error(`packing the packages failed in another test file:\n${readFileSync(failed, 'utf8')}`);
    await sleep(200);
  }
  return JSON.parse(readFileSync(listed, 'utf8')) as Tarballs;
}

async function packAll(destination: string): Promise<Tarballs> {
  const tarballs: Partial<Tarballs> = {};
  for (const name of Object.keys(PACKAGES) as PackageName[]) {
    await buildPackage(name);
    tarballs[name] = packPackage(name, destination);
  }
  return tarballs as Tarballs;
}

/** True for the one caller that creates `path`: the file system decides between the workers. */
function claim(path: string): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

// A waiter must never read a half-written file.
function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.partial`, text);
  renameSync(`${path}.partial`, path);
}
