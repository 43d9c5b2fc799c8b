// Which of the reference server's files the benchmark mutates: the code that decides what a client
// sees. Read by the listing of mutants and by the run that has to find a mutant's file again, which
// must not pay for loading the instrumenter.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The folders whose code decides what a client sees; the kit is run against SQLite, so PostgreSQL's adapter is left out. */
export const MUTATED_FOLDERS = [
  'packages/core/src/domain',
  'packages/core/src/use-cases',
  'server/routes',
  'server/http',
  'server/webhooks',
  'server/store/sqlite',
] as const;

const typeScript = (name: string) => name.endsWith('.ts');

/** The files of `folders` under `root` whose names `keep` (TypeScript sources by default), relative to it. */
export function sourceFiles(
  root: string,
  folders: readonly string[] = MUTATED_FOLDERS,
  keep: (name: string) => boolean = typeScript,
): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && keep(entry.name))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      .sort(),
  );
}
