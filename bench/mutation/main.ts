// `npm run bench:mutation -- [--sample N] [--seed S] [--file F] [--incremental] [--per-file | --control]`:
// Stryker's mutants of the reference server's behaviour-bearing code, each judged by the contract kit
// from outside (kill.ts), sampled by seed and stratified by folder and mutator; the report gives the
// kill rate over mutants a client can observe, per folder and per kind of mutation, and every
// survivor the ledger (ledger.ts) has no verdict for. Not part of `npm test`: a mutant costs a kit
// run (~30 s), or the run of the checks that reach its file (the check map, check-map.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { Stryker } from '@stryker-mutator/core';
import { HELP_OPTION, usageError } from '../../common/cli.ts';
import { root } from '../../scripts/pipeline.ts';
import { ensureCheckMap } from './build-check-map.ts';
import { type Candidate, candidateKey, listCandidates } from './candidates.ts';
import { formatControl, type ModeRun, readTimes } from './control.ts';
import { LEDGER } from './ledger.ts';
import { formatReport, type Outcome, type Status, summarise } from './report.ts';
import { mutateRanges, sampleMutants } from './sample.ts';
import { MUTATED_FOLDERS, sourceFiles } from './sources.ts';

const USAGE = `usage: npm run bench:mutation -- [options]
  --sample <n>     run about n mutants, stratified by folder and mutator (default: every mutant)
  --seed <s>       which sample (default 1); the kit's own generated inputs use it too
  --file <path>    only this file's mutants (repeatable), e.g. the one a change touched
  --incremental    reuse the previous run's results for code that did not change (Stryker's incremental mode)
  --per-file       run, for each mutant, only the checks that reach its file (the check map, built
                   first when the server's or the kit's sources changed); a file no check reaches
                   beyond start-up, or no readable map, runs the whole kit
  --control        run the sample twice, with the whole kit and --per-file, and print them side by
                   side: kills, time per mutant, and every mutant only the whole kit killed
  --check-map      run no mutant: build the check map if it is out of date and print it
  --report <file>  run nothing: report a previous run's outcomes (artifacts/mutation/report-*.json) with the ledger as it is now
mutates: ${MUTATED_FOLDERS.join(', ')}`;

let args;
try {
  args = parseArgs({
    options: {
      ...HELP_OPTION,
      sample: { type: 'string' },
      seed: { type: 'string', default: '1' },
      file: { type: 'string', multiple: true },
      incremental: { type: 'boolean' },
      'per-file': { type: 'boolean' },
      control: { type: 'boolean' },
      'check-map': { type: 'boolean' },
      report: { type: 'string' },
    },
  }).values;
} catch (error) {
  process.stderr.write(usageError('bench:mutation', (error as Error).message));
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const whole = (value: string | undefined, name: string) => {
  if (value !== undefined && !/^\d+$/.test(value)) {
    process.stderr.write(usageError('bench:mutation', `--${name} must be a whole number`));
    process.exit(2);
  }
  return value === undefined ? undefined : Number(value);
};
if (args.control && (args['per-file'] || args.incremental)) {
  process.stderr.write(usageError('bench:mutation', '--control runs both ways itself, without --per-file or --incremental'));
  process.exit(2);
}
const size = whole(args.sample, 'sample');
const seed = whole(args.seed, 'seed')!;

if (args.report) {
  // The listing gives each recorded key its folder and mutator again; a key whose code changed since is left out.
  const recorded = JSON.parse(readFileSync(args.report, 'utf8')) as { outcomes: { key: string; status: Status }[] };
  const byKey = new Map((await listCandidates(root, sourceFiles(root))).map((c) => [c.key, c]));
  const outcomes = recorded.outcomes.flatMap(({ key, status }) => (byKey.has(key) ? [{ mutant: byKey.get(key)!, status }] : []));
  process.stdout.write(`${formatReport(summarise(outcomes, LEDGER))}\n`);
  process.exit(0);
}

const artifacts = join(root, 'artifacts/mutation');
const mapPath = join(artifacts, 'check-map.json');
const say = (line: string) => void process.stdout.write(`${line}\n`);
if (args['check-map']) {
  const map = await ensureCheckMap(root, mapPath, say);
  for (const file of sourceFiles(root))
    say(`${file}: ${map.files[file]?.join(', ') ?? 'the whole kit (no check reaches it beyond start-up)'}`);
  process.exit(0);
}

const files = args.file ?? sourceFiles(root);
const candidates = await listCandidates(root, files);
const { picked, runs } = sampleMutants(candidates, size, seed);
say(
  `bench:mutation: ${candidates.length} mutants in ${files.length} files; ${size === undefined ? 'running all' : `sample of ${runs.length} (${picked.length} picked, seed ${seed})`}`,
);
mkdirSync(artifacts, { recursive: true });
if (args['per-file'] || args.control) await ensureCheckMap(root, mapPath, say);

const incremental = args.incremental ?? false;
const wanted = new Set(runs.map((m) => m.key));
const byKey = new Map(candidates.map((c) => [c.key, c]));

/** One Stryker run over the sample; `perFile`: each mutant runs only the checks the map gives its file. */
async function mutationRun(perFile: boolean): Promise<ModeRun> {
  const timesPath = join(artifacts, `times-seed${seed}-${size ?? 'all'}${perFile ? '-per-file' : ''}.jsonl`);
  rmSync(timesPath, { force: true });
  // Stryker's workers, started by the run, hand their environment to kill.ts.
  process.env.SECMON_MUTATION_TIMES = timesPath;
  process.env.SECMON_MUTATION_SEED = String(seed);
  if (perFile) process.env.SECMON_MUTATION_CHECK_MAP = mapPath;
  else delete process.env.SECMON_MUTATION_CHECK_MAP;
  const started = performance.now();
  const results = await new Stryker({
    testRunner: 'command',
    commandRunner: { command: `"${process.execPath}" bench/mutation/kill.ts` },
    mutate: size === undefined ? files : mutateRanges(picked),
    coverageAnalysis: 'off',
    // Each mutant starts a server and runs the kit; two at once fill this machine's two cores.
    concurrency: 2,
    // Added to 1.5 times the unmutated run (a kit run, about 30 s): a mutant that hangs the server
    // is stopped after about 105 s, three times a kit run on a loaded machine.
    timeoutMS: 60_000,
    reporters: ['progress-append-only'],
    incremental,
    incrementalFile: join(artifacts, `stryker-incremental${perFile ? '-per-file' : ''}.json`),
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
    ignorePatterns: ['artifacts', 'dist', 'data', 'docs', 'examples'],
    // Stryker rewrites a tsconfig's project references with TypeScript's JavaScript API, which
    // TypeScript 7 no longer has; Node runs the sandbox's .ts files as they are, so none is named.
    tsconfigFile: 'no-tsconfig-to-rewrite.json',
    plugins: [],
    checkers: [],
  }).runMutationTest();
  const seconds = (performance.now() - started) / 1000;
  const ids = new Map<string, Candidate>();
  const outcomes: Outcome[] = results.flatMap((result) => {
    const key = candidateKey({
      file: relative(root, result.fileName),
      // A result's location counts lines and columns from 1, as Stryker's reports do; the listing from 0.
      start: { line: result.location.start.line - 1, column: result.location.start.column - 1 },
      mutator: result.mutatorName,
      replacement: result.replacement,
    });
    const mutant = byKey.get(key);
    if (!mutant) process.stderr.write(`bench:mutation: a result for a mutant the listing lacks: ${key}\n`);
    if (mutant) ids.set(result.id, mutant);
    return mutant && (size === undefined || wanted.has(key))
      ? [{ mutant, status: result.status as Status, ...(result.statusReason ? { reason: result.statusReason.slice(0, 400) } : {}) }]
      : [];
  });
  say(`\n${formatReport(summarise(outcomes, LEDGER))}`);
  writeFileSync(
    join(artifacts, `report-seed${seed}-${size ?? 'all'}${perFile ? '-per-file' : ''}.json`),
    // Why each was killed (the kit's first lines): a kill by something else than the kit's verdict (a
    // server stopped from outside) shows here.
    `${JSON.stringify({ seed, size, perFile, outcomes: outcomes.map(({ mutant, status, reason }) => ({ key: mutant.key, status, ...(reason ? { reason } : {}) })) }, null, 2)}\n`,
  );
  return { outcomes, seconds, runs: readTimes(timesPath, ids) };
}

if (args.control) {
  const full = await mutationRun(false);
  const perFile = await mutationRun(true);
  say(`\n${formatControl(full, perFile)}`);
} else await mutationRun(args['per-file'] ?? false);
