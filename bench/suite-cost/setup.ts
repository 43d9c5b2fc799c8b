// Set up before every test file of a `npm run bench:suite` run: charges the file the CPU its worker
// spent from here to its end and the CPU of the processes it started and reaped (Linux
// /proc/self/stat), and appends one line to the file SECMON_SUITE_COST names.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/** This process's own CPU seconds and those of its reaped children. */
function cpu(): { own: number; children: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const seconds = (index: number) => Number(fields[index]) / 100;
  return { own: seconds(11) + seconds(12), children: seconds(13) + seconds(14) };
}

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
  };
  appendFileSync(process.env.SECMON_SUITE_COST!, `${JSON.stringify(line)}\n`);
});
