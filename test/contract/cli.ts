// `npm run contract -- --base-url <url> --api-key <key> [--read-key <key>] [--profile stateful|stateless]
// [--report junit.xml]`: runs the contract kit (vitest, test/contract/kit/entry.kit.ts) against any
// implementation, prints every violation and the coverage table, and exits non-zero on a violation.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDocument } from '../../lib/document.ts';
import { coverage, formatCoverage } from './kit/coverage.ts';
import type { CheckResult } from './kit/runner.ts';
import { buildModel } from './kit/spec.ts';

const USAGE = `usage: npm run contract -- --base-url <url> --api-key <key> [options]

  --base-url <url>        the implementation under test (its /v1 paths are appended)
  --api-key <key>         a key with the read and write scopes
  --read-key <key>        a key with only the read scope (enables the 403 checks)
  --profile <p>           stateful (default) or stateless (a mock: skips checks that need state)
  --report <file>         also write a JUnit XML report there
  --seed <n>              seed of the generated cases (default fixed, so runs repeat)
  --cases <n>             generated valid and invalid cases per operation (default 24)
  --rate-probe-max <n>    provoke a 429 only if the key's quota is at most n (default 300)
  --known-limits <file>   JSON [{ "check", "subject", "reason" }]: failures reported as known limits

The target must accept webhook URLs on loopback (development mode) for the event checks; it may
offer POST /_simulator/events to emit device and scan events.`;

let args;
try {
  args = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'read-key': { type: 'string' },
      profile: { type: 'string', default: 'stateful' },
      report: { type: 'string' },
      seed: { type: 'string' },
      cases: { type: 'string' },
      'rate-probe-max': { type: 'string' },
      'known-limits': { type: 'string' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const problems = [
  !args['base-url'] && '--base-url is required',
  !args['api-key'] && '--api-key is required',
  args.profile !== 'stateful' && args.profile !== 'stateless' && '--profile must be stateful or stateless',
  ...(['seed', 'cases', 'rate-probe-max'] as const).map((name) => args[name] !== undefined && !/^\d+$/.test(args[name]) && `--${name} must be a whole number`),
].filter(Boolean);
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n\n${USAGE}\n`);
  process.exit(2);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'secmon-contract-'));
const resultsFile = join(scratch, 'results.json');
const reporters = ['--reporter=default', ...(args.report ? ['--reporter=junit', `--outputFile.junit=${resolve(args.report)}`] : [])];
const env: NodeJS.ProcessEnv = {
  ...process.env,
  CONTRACT_BASE_URL: args['base-url'],
  CONTRACT_API_KEY: args['api-key'],
  CONTRACT_PROFILE: args.profile,
  CONTRACT_RESULTS_FILE: resultsFile,
  ...(args['read-key'] ? { CONTRACT_READ_KEY: args['read-key'] } : {}),
  ...(args.seed ? { CONTRACT_SEED: args.seed } : {}),
  ...(args.cases ? { CONTRACT_CASES: args.cases } : {}),
  ...(args['rate-probe-max'] ? { CONTRACT_RATE_PROBE_MAX: args['rate-probe-max'] } : {}),
  ...(args['known-limits'] ? { CONTRACT_KNOWN_LIMITS: resolve(args['known-limits']) } : {}),
};

const started = performance.now();
process.stdout.write(`contract kit: ${args.profile} checks against ${args['base-url']}\n`);
// process.execPath: the pinned Node 24 that runs this CLI, not whatever `node` is on PATH.
const child = spawn(process.execPath, [vitestBin, 'run', '--config', 'test/contract/kit/vitest.config.ts', ...reporters], {
  cwd: root,
  env,
  stdio: 'inherit',
});
// A stopped CLI stops its suite too, rather than leaving it running against the target.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((done) => child.on('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0))));
const seconds = ((performance.now() - started) / 1000).toFixed(1);

let results: CheckResult[] = [];
try {
  results = (JSON.parse(readFileSync(resultsFile, 'utf8')) as { results: CheckResult[] }).results;
} catch {
  process.stderr.write('contract kit: the suite wrote no results (it did not start; see the output above)\n');
}
rmSync(scratch, { recursive: true, force: true });

const failures = results.filter((r) => r.outcome === 'failed');
if (failures.length > 0) {
  process.stdout.write(`\n${failures.length} contract violation${failures.length === 1 ? '' : 's'}:\n\n`);
  for (const failure of failures) process.stdout.write(`${failure.error}\n\n`);
}
const report = coverage(buildModel(loadDocument()), results);
process.stdout.write(`\n${formatCoverage(report)}\n\ncontract kit finished in ${seconds} s${args.report ? `; JUnit report: ${args.report}` : ''}\n`);
process.exit(code !== 0 || !report.passed || results.length === 0 ? 1 : 0);
