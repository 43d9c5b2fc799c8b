// The map from a mutated source file to the checks of the kit that reach it, as stored in
// artifacts/mutation/check-map.json, and the key that says whether it still describes the code:
// a hash of every source the server runs and the kit plans from, and of how the map is made.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './sources.ts';

export interface CheckMap {
  key: string;
  /** Every check the map was built from, in the kit's order. */
  checks: string[];
  /** For each mutated file some check reaches, the checks that run its code beyond start-up. */
  files: Record<string, string[]>;
}

export interface Source {
  path: string;
  content: string;
}

/** What the map depends on: the server and its rules core, the kit, the document, and the map's own making. */
export const MAP_INPUTS = [
  'server',
  'packages/core/src',
  'packages/contract/src',
  'openapi',
  'bench/mutation/build-check-map.ts',
  'bench/mutation/coverage.ts',
  'bench/mutation/sources.ts',
  'bench/mutation/target.ts',
] as const;

/** The map's key: the same for the same files and contents (in any order) and seed, another when any differs. */
export function mapKey(sources: readonly Source[], seed: string): string {
  const hash = createHash('sha256').update(`seed ${seed}\0`);
  for (const { path, content } of [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    hash.update(`${path}\0${content.length}\0${content}\0`);
  return hash.digest('hex');
}

/** The sources `MAP_INPUTS` names under `root`: the folders' files (every extension) and the single files. */
export function mapSources(root: string): Source[] {
  return MAP_INPUTS.flatMap((input) => (input.endsWith('.ts') ? [input] : sourceFiles(root, [input], () => true))).map((path) => ({
    path,
    content: readFileSync(join(root, path), 'utf8'),
  }));
}

/** The map stored at `path`, or undefined when there is none or it cannot be read as one. */
export function readCheckMap(path: string): CheckMap | undefined {
  try {
    const map = JSON.parse(readFileSync(path, 'utf8')) as Partial<CheckMap>;
    const valid =
      typeof map.key === 'string' &&
      Array.isArray(map.checks) &&
      typeof map.files === 'object' &&
      map.files !== null &&
      Object.values(map.files).every((checks) => Array.isArray(checks) && checks.every((c) => typeof c === 'string'));
    return valid ? (map as CheckMap) : undefined;
  } catch {
    return undefined;
  }
}

/** The checks to run for a mutant in `file`; undefined (run them all) when the map is missing or no check reaches the file. */
export function checksForFile(map: CheckMap | undefined, file: string | undefined): string[] | undefined {
  const checks = map && file ? map.files[file] : undefined;
  return checks && checks.length > 0 ? checks : undefined;
}
