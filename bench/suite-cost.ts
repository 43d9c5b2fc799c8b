// `npm run bench:suite [-- <vitest file filters>]`: where `npm test`'s time goes, file by file. Runs
// the suite as `npm test` does (the unit, sqlite and postgres projects, the same workers) with a
// setup file (bench/suite-cost/) that charges each test file the CPU its worker spent on it and the
// CPU of the processes it started; then prints the run's wall time and CPU, the files by CPU and by
// wall time, the files that end the run, the CPU per folder, and the CPU per kind of process
// (process-sampler.ts). About 6 minutes for the whole suite, vitest's progress dots on stderr;
// filters narrow it as they narrow `vitest run`. Not part of `npm test`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../scripts/pipeline.ts';
import { machineBusy, machineTicks, selfCpuSeconds } from './proc.ts';
import { sampleProcesses } from './process-sampler.ts';

interface FileCost {
  file: string;
  project: string;
  /** CPU seconds of the worker while it ran the file. */
  own: number;
  /** CPU seconds of the processes the file started (and reaped). */
  children: number;
  wall: number;
  /** When the file ended (Unix seconds): the run's tail is the files that end last. */
  endedAt: number;
}

const dir = mkdtempSync(join(tmpdir(), 'secmon-suite-cost-'));
const out = join(dir, 'files.jsonl');
const cpuBefore = selfCpuSeconds().children;
const machineBefore = machineTicks();
const sampler = sampleProcesses(root);
const started = performance.now();
const vitest = spawn(
  process.execPath,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    join(root, 'bench/suite-cost/vitest.config.ts'),
    ...['--project', 'unit', '--project', 'sqlite', '--project', 'postgres', '--reporter', 'dot'],
    ...process.argv.slice(2),
  ],
  { cwd: root, env: { ...process.env, SECMON_SUITE_COST: out }, stdio: ['ignore', process.stderr, process.stderr] },
);
const [code] = (await once(vitest, 'exit')) as [number | null];
const wall = (performance.now() - started) / 1000;
const cpu = selfCpuSeconds().children - cpuBefore;
const machine = machineBusy(machineBefore, machineTicks());
const kinds = sampler.stop();

let files: FileCost[] = [];
try {
  files = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as FileCost);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const total = (file: FileCost) => file.own + file.children;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const s = (seconds: number) => seconds.toFixed(1);
const pct = (share: number) => `${Math.round(share * 100)} %`;

const lines = [
  `suite: ${s(wall)} s wall, ${s(cpu)} CPU-s in the processes vitest waited for (${(cpu / wall).toFixed(2)} of ${availableParallelism()} cores); vitest exited ${code}`,
  // The reaped processes' CPU leaves out what nobody waits for (Chromium's helpers, PostgreSQL's
  // servers, processes ended by a signal) and the kernel's work for them: the machine's own count does not.
  ...(machine
    ? [
        `machine: ${pct(machine.busy)} busy (user ${pct(machine.user)}, system ${pct(machine.system)}), ${s(machine.cpuSeconds)} CPU-s of ${availableParallelism()} cores; anything else running on it is counted too`,
      ]
    : []),
  `${files.length} test files: ${s(sum(files.map((file) => file.own)))} CPU-s in the workers, ${s(sum(files.map((file) => file.children)))} in the processes they started; the rest is vitest's own process and what global set-up started (PostgreSQL)`,
  '',
  '| CPU s | of it, started processes | wall s | project | file (by CPU) |',
  '|---:|---:|---:|---|---|',
  ...[...files]
    .sort((a, b) => total(b) - total(a))
    .slice(0, 15)
    .map((file) => `| ${s(total(file))} | ${s(file.children)} | ${s(file.wall)} | ${file.project} | ${file.file} |`),
  '',
  '| wall s | CPU s | project | file (by wall time) |',
  '|---:|---:|---|---|',
  ...[...files]
    .sort((a, b) => b.wall - a.wall)
    .slice(0, 10)
    .map((file) => `| ${s(file.wall)} | ${s(total(file))} | ${file.project} | ${file.file} |`),
  '',
  '| ended, s before the last | wall s | project | file (the last to end: a long one here ends the run alone) |',
  '|---:|---:|---|---|',
  ...[...files]
    .sort((a, b) => b.endedAt - a.endedAt)
    .slice(0, 6)
    .map((file, _, [last]) => `| ${s(last!.endedAt - file.endedAt)} | ${s(file.wall)} | ${file.project} | ${file.file} |`),
  '',
  '| folder | files | CPU s | wall s (summed over workers) |',
  '|---|---:|---:|---:|',
];
const folders = new Map<string, FileCost[]>();
for (const file of files) {
  const folder = `${file.project} ${file.file.split('/').slice(0, 2).join('/')}`;
  folders.set(folder, [...(folders.get(folder) ?? []), file]);
}
for (const [folder, members] of [...folders].sort((a, b) => sum(b[1].map(total)) - sum(a[1].map(total))))
  lines.push(`| ${folder} | ${members.length} | ${s(sum(members.map(total)))} | ${s(sum(members.map((file) => file.wall)))} |`);
lines.push(
  '',
  '| CPU s | processes | kind (every process on the machine, read from /proc twice a second) |',
  '|---:|---:|---|',
  ...kinds.filter((kind) => kind.cpu >= 1).map((kind) => `| ${s(kind.cpu)} | ${kind.processes} | ${kind.kind} |`),
);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(code ?? 1);
