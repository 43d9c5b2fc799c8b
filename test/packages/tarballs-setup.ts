// Global setup of the sqlite project: one folder per run for the packed tarballs, so the package
// test files (one worker each) build and pack the packages once between them (tarballs.ts) and
// nothing of a run is left behind. Creating the folder is all it costs a run that packs nothing.
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
  const dir = mkdtempSync(join(tmpdir(), 'secmon-tarballs-'));
  project.provide('tarballsDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
