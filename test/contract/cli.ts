#!/usr/bin/env node
// `secmon-contract --base-url <url> --api-key <key> [options]` (in this repository: `npm run contract
// -- …`): runs every check of the contract kit against any implementation, one line per check as it
// goes, then every violation, the coverage table, and a JUnit file if asked; exits 1 on a violation.
// The document it checks against is the one bundled into it (`--version` names it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadDocument } from '../../lib/document.ts';
import { MARK } from './kit/coverage.ts';
import { junitReport } from './kit/junit.ts';
import { runKit, type KnownLimit } from './kit/runner.ts';

const document = loadDocument();
const VERSION = `secmon-contract ${document.info.version} (checks ${document.info.title} ${document.info.version})`;

const USAGE = `usage: secmon-contract --base-url <url> --api-key <key> [options]

  --base-url <url>        the implementation under test (its /v1 paths are appended)
  --api-key <key>         a key with the read and write scopes
  --read-key <key>        a key with only the read scope (enables the 403 checks)
  --profile <p>           stateful (default) or stateless (a mock: skips checks that need state)
  --report <file>         also write a JUnit XML report there (relative to this folder)
  --seed <n>              seed of the generated cases (default fixed, so runs repeat)
  --cases <n>             generated valid and invalid cases per operation (default 24)
  --rate-probe-max <n>    provoke a 429 only if the key's quota is at most n (default 300)
  --known-limits <file>   JSON [{ "check", "subject", "reason" }]: failures reported as known limits
  --version               print the kit's version and the document version it checks

The target must accept webhook URLs on loopback (development mode) for the event checks; it may
offer POST /_simulator/events to emit device and scan events.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

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
      version: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (error) {
  fail((error as Error).message);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.version) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}
const { profile } = args;
const problems = [
  !args['base-url'] && '--base-url is required',
  args['base-url'] && !URL.canParse(args['base-url']) && '--base-url must be an absolute URL',
  !args['api-key'] && '--api-key is required',
  profile !== 'stateful' && profile !== 'stateless' && '--profile must be stateful or stateless',
  ...(['seed', 'cases', 'rate-probe-max'] as const).map((name) => args[name] !== undefined && !/^\d+$/.test(args[name]) && `--${name} must be a whole number`),
].filter(Boolean);
if (problems.length > 0) fail(problems.join('\n'));

let knownLimits: KnownLimit[] = [];
if (args['known-limits']) {
  try {
    knownLimits = JSON.parse(readFileSync(resolve(args['known-limits']), 'utf8')) as KnownLimit[];
  } catch (error) {
    fail(`--known-limits: ${(error as Error).message}`);
  }
}
const started = performance.now();
process.stdout.write(`${VERSION}: ${profile} checks against ${args['base-url']}\n\n`);
const run = await runKit(
  {
    baseUrl: args['base-url']!,
    apiKey: args['api-key']!,
    profile: profile as 'stateful' | 'stateless',
    ...(args['read-key'] ? { readKey: args['read-key'] } : {}),
    ...(args.seed ? { seed: Number(args.seed) } : {}),
    ...(args.cases ? { cases: Number(args.cases) } : {}),
    ...(args['rate-probe-max'] ? { rateProbeMaxQuota: Number(args['rate-probe-max']) } : {}),
  },
  {
    knownLimits,
    onResult: (result, done, total) => {
      const why = result.outcome === 'skipped' || result.outcome === 'known-limit' ? `  (${result.outcome}: ${result.reason ?? ''})` : '';
      process.stdout.write(`${MARK[result.outcome]} [${done}/${total}] ${result.id}  ${result.ms} ms${why}\n`);
    },
  },
);
const seconds = (performance.now() - started) / 1000;

const failures = run.results.filter((r) => r.outcome === 'failed');
if (failures.length > 0) {
  process.stdout.write(`\n${failures.length} contract violation${failures.length === 1 ? '' : 's'}:\n\n`);
  for (const failure of failures) process.stdout.write(`${failure.error}\n\n`);
}
if (args.report) {
  const report = resolve(args.report);
  mkdirSync(dirname(report), { recursive: true });
  writeFileSync(report, junitReport(`contract kit against ${args['base-url']} (${profile})`, run.results, seconds));
}
process.stdout.write(`\n${run.table}\n\ncontract kit finished in ${seconds.toFixed(1)} s${args.report ? `; JUnit report: ${resolve(args.report)}` : ''}\n`);
process.exit(run.coverage.passed && run.results.length > 0 ? 0 : 1);
