// The gate as a user runs it, for the gate's tests: edit a copy of openapi/ (the sources, not the
// bundle), run the command line with `--source <copy>` and no other step, and read its exit code and
// output. The command line's own function (runGate) runs in the test's process, as the command runs
// it, without starting Node and loading the gate again for each case; `gateCommand` starts the
// command itself, for the tests that prove what a shell sees.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { parse, stringify } from 'yaml';
import { defaultSource, runGate } from '../../scripts/breaking/check.ts';
import { root } from '../../scripts/pipeline.ts';

/** Room for a test that bundles the sources several times, several tests at once on a shared machine. */
export const GATE_RUNS_MS = 180_000;

export const scratch = mkdtempSync(join(tmpdir(), 'gate-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A fresh copy of openapi/ with `edits` applied: a function edits a YAML file as parsed (paths
 * relative to openapi/), a string replaces a file's text (CHANGELOG.md, a release).
 */
export function editedSources(name: string, edits: Record<string, ((doc: any) => void) | string>): string {
  const dir = join(scratch, name);
  cpSync(defaultSource, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    if (typeof edit === 'string') {
      writeFileSync(join(dir, file), edit);
      continue;
    }
    const doc = parse(readFileSync(join(dir, file), 'utf8'));
    edit(doc);
    writeFileSync(join(dir, file), stringify(doc));
  }
  return dir;
}

type GateRun = { status: number | null; stdout: string; stderr: string };

/** Runs the gate's command line as `npm run check:breaking -- <args>` would, in a process of its own. */
export function gateCommand(args: string[]): Promise<GateRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/breaking/check.ts', ...args], { cwd: root, timeout: 60_000 });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The gate's command line with `args`, in this process: its exit code and what it printed. */
export async function gate(args: string[]): Promise<GateRun> {
  const run = { stdout: '', stderr: '' };
  const status = runGate(args, { out: (line) => (run.stdout += `${line}\n`), err: (line) => (run.stderr += `${line}\n`) });
  return { status, ...run };
}

/** The gate on a copy of openapi/ with `edits` applied (see editedSources). */
export const gateOnEdited = (name: string, edits: Parameters<typeof editedSources>[1]) => gate(['--source', editedSources(name, edits)]);
