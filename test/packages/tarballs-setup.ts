// Global setup of the sqlite project: one folder per run for the packed tarballs, so the package
// test files (one worker each) build and pack the packages once between them (tarballs.ts) and
// nothing of a run is left behind. Creating the folder is all it costs a run that packs nothing.
// A rerun in watch mode gets a fresh folder: the sources may have changed since.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tarballsDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  let dir = '';
  const fresh = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'secmon-tarballs-'));
    project.provide('tarballsDir', dir);
  };
  fresh();
  project.onTestsRerun(fresh);
  return () => rmSync(dir, { recursive: true, force: true });
}
