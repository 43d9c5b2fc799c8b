// Set up before every test file of a `npm run bench:suite` run: charges the file the CPU its worker
// spent from here to its end and the CPU of the processes it started and reaped (Linux
// /proc/self/stat), and appends one line to the file SECMON_SUITE_COST names.
import { appendFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { selfCpuSeconds as cpu } from '../proc.ts';

const start = { ...cpu(), at: performance.now() };

// biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's first parameter as fixtures and refuses any other shape
afterAll(({}, suite) => {
  const end = cpu();
  const file = (suite as { filepath?: string }).filepath ?? '?';
  const project = (suite as { projectName?: string }).projectName ?? '';
  const line = {
    file: file.slice(process.cwd().length + 1),
    project,
    own: end.own - start.own,
    children: end.children - start.children,
    wall: (performance.now() - start.at) / 1000,
    endedAt: Date.now() / 1000,
  };
  appendFileSync(process.env.SECMON_SUITE_COST!, `${JSON.stringify(line)}\n`);
});
