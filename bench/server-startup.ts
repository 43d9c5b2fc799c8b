// `npm run bench:start` — how long `npm start` takes from spawn until `/healthz` answers, the way
// a reader of the README starts the server (npm, its scripts, the database file), median of RUNS.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const GIVE_UP_MS = 60_000;

async function startOnce(dir: string, run: number): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // detached: npm starts node as a child; the whole group is stopped afterwards.
  const child = spawn('npm', ['start', '--', '--port', String(port), '--db', join(dir, `run-${run}.db`)], {
    detached: true,
    stdio: 'ignore',
  });
  try {
    while (performance.now() - started < GIVE_UP_MS) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start exited (${child.exitCode ?? child.signalCode})`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_000) });
        if (response.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`/healthz did not answer within ${GIVE_UP_MS} ms`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await once(child, 'exit');
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'secmon-start-'));
try {
  const samples: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    samples.push(await startOnce(dir, run));
    process.stderr.write(`run ${run}/${RUNS}: ${samples.at(-1)!.toFixed(0)} ms\n`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  console.table([
    {
      command: 'npm start → /healthz',
      runs: RUNS,
      min_ms: Math.round(sorted[0]!),
      median_ms: Math.round(sorted[Math.floor(RUNS / 2)]!),
      max_ms: Math.round(sorted.at(-1)!),
    },
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
