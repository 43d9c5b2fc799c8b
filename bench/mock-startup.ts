// `npm run bench:mock` — how long the mock takes from spawn to its first HTTP answer, in each mode,
// measured side by side in one run (runs alternate between modes so machine noise hits all alike).
import { startMock, type MockOptions } from '../mock/prism.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const MODES: [string, MockOptions][] = [
  ['static + shim (npm run mock)', {}],
  ['dynamic + shim (--dynamic)', { dynamic: true }],
  ['bare Prism (--bare)', { shim: false }],
];

const samples = new Map<string, number[]>(MODES.map(([name]) => [name, []]));
for (let run = 1; run <= RUNS; run++) {
  for (const [name, options] of MODES) {
    const mock = await startMock(options);
    samples.get(name)!.push(mock.startupMs);
    await mock.stop();
  }
  process.stderr.write(`run ${run}/${RUNS} done\n`);
}

const rows = [...samples].map(([name, values]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { mode: name, runs: sorted.length, min_ms: sorted[0], median_ms: sorted[Math.floor(sorted.length / 2)], max_ms: sorted.at(-1) };
});
console.table(rows);
