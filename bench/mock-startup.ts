// `npm run bench:mock` — how long the mock takes from `node packages/mock/src/main.ts <flags>` (what `npm run mock`
// runs) until it answers HTTP, in each mode, measured side by side in one run (runs alternate
// between modes so machine noise hits all alike). Any status counts as an answer.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const GIVE_UP_MS = 60_000;
const MAIN = fileURLToPath(new URL('../packages/mock/src/main.ts', import.meta.url));
const MODES: [string, string[]][] = [
  ['static + shim (npm run mock)', []],
  ['dynamic + shim (--dynamic)', ['--dynamic']],
  ['bare Prism (--bare)', ['--bare']],
  ['stateful (--stateful)', ['--stateful']],
];

async function startOnce(flags: string[]): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, ...flags, '--port', String(port)], { stdio: 'ignore' });
  try {
    while (performance.now() - started < GIVE_UP_MS) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`mock ${flags.join(' ')} exited (${child.exitCode ?? child.signalCode})`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/policies`, { signal: AbortSignal.timeout(1_000) });
        await response.body?.cancel();
        return performance.now() - started;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    throw new Error(`mock ${flags.join(' ')} did not answer within ${GIVE_UP_MS} ms`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

const samples = new Map<string, number[]>(MODES.map(([name]) => [name, []]));
for (let run = 1; run <= RUNS; run++) {
  for (const [name, flags] of MODES) samples.get(name)!.push(await startOnce(flags));
  process.stderr.write(`run ${run}/${RUNS} done\n`);
}

const rows = [...samples].map(([name, values]) => {
  const sorted = [...values].sort((a, b) => a - b).map(Math.round);
  return { mode: name, runs: sorted.length, min_ms: sorted[0], median_ms: sorted[Math.floor(sorted.length / 2)], max_ms: sorted.at(-1) };
});
console.table(rows);
