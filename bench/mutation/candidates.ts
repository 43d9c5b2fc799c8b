// Every mutant Stryker would make in the reference server's behaviour-bearing code, listed without
// running anything (Stryker's own instrumenter), so a run can sample from them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@stryker-mutator/api/logging';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { MUTATED_FOLDERS } from './sources.ts';

export interface Position {
  line: number;
  column: number;
}

export interface Candidate {
  /** `file:line:column:mutator:replacement`: stable while the file's text is. */
  key: string;
  file: string;
  folder: string;
  mutator: string;
  replacement: string;
  start: Position;
  end: Position;
}

const quiet: Logger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => void process.stderr.write(`${message}\n`),
  error: (message: string) => void process.stderr.write(`${message}\n`),
  fatal: (message: string) => void process.stderr.write(`${message}\n`),
};

export const candidateKey = (m: { file: string; start: Position; mutator: string; replacement: string }) =>
  `${m.file}:${m.start.line}:${m.start.column}:${m.mutator}:${m.replacement}`;

/** What Stryker's run makes of `sources`: each file instrumented, and its mutants. */
export const instrument = (sources: { name: string; content: string }[]) =>
  new Instrumenter(quiet).instrument(
    sources.map((source) => ({ ...source, mutate: true })),
    // The instrumenter's defaults, as Stryker's run uses them.
    { plugins: null, excludedMutations: [], ignorers: [], noHeader: true },
  );

export async function listCandidates(root: string, files: readonly string[]): Promise<Candidate[]> {
  const { mutants } = await instrument(files.map((name) => ({ name, content: readFileSync(join(root, name), 'utf8') })));
  return mutants.map((mutant) => {
    const file = mutant.fileName;
    const candidate = {
      file,
      folder: MUTATED_FOLDERS.find((folder) => file.startsWith(`${folder}/`)) ?? file,
      mutator: mutant.mutatorName,
      replacement: mutant.replacement,
      start: mutant.location.start,
      end: mutant.location.end,
    };
    return { key: candidateKey(candidate), ...candidate };
  });
}
