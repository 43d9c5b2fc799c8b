// Which file a mutant is in, from inside the run Stryker started for it: Stryker names only the
// active mutant's id, and its sandbox holds the instrumented sources, where each mutant's code is
// switched on by a call naming its id. Only the file that holds the mutant has that call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './sources.ts';

/** The call Stryker's instrumenter writes where mutant `id` is switched on. */
export const activationCall = (id: string) => `stryMutAct_9fa48(${JSON.stringify(id)})`;

/** Which of `sources` holds mutant `id`; undefined when none or several do (no file to trust). */
export function fileOfMutant(id: string, sources: Iterable<{ file: string; content: string }>): string | undefined {
  const call = activationCall(id);
  const holders = [...sources].filter(({ content }) => content.includes(call));
  return holders.length === 1 ? holders[0]!.file : undefined;
}

/** The file of the mutated folders under `sandbox` (relative to it) that holds mutant `id`. */
export function findMutantFile(sandbox: string, id: string): string | undefined {
  return fileOfMutant(
    id,
    sourceFiles(sandbox).map((file) => ({ file, content: readFileSync(join(sandbox, file), 'utf8') })),
  );
}
