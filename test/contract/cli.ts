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
import { CHECKS } from './kit/plan.ts';
import { formatRules, ruleCoverage } from './kit/rules/trace.ts';
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
  --events check|skip     skip: report the event checks as skipped (a target that cannot reach the
                          kit's receiver); webhooks the kit creates then point at a .invalid host
  --receiver-url <url>    the URL the target reaches the kit's receiver at (a tunnel or CI service
                          in front of --receiver-listen); default: loopback, for development targets
  --receiver-listen <a>   where the receiver listens: [host:]port (default 127.0.0.1, a free port)
  --event-timeout <ms>    how long to wait for the events' deliveries (default 15000)
  --cors-origin <origin>  an origin the target allows for browsers (without it, the CORS check tries
                          http://localhost:5173 and is skipped if the target does not allow it)
  --compressed-retries    the target compresses its webhook retry schedule (a test setting): the waits
                          before the first retry and after a Retry-After are then not judged
  --rules                 print every rule of the document (each sentence of its descriptions) with
                          its checks and status; with --base-url, after the run, with each verdict
  --version               print the kit's version and the document version it checks

Everything the kit creates is deleted at the end, also on failure and on Ctrl-C; its names start
with "kit-". It paces itself by the target's RateLimit headers and says when it waits.
Exit status: 0 clean verdict, 1 a violation or a coverage gap, 2 bad options or no answer from the
target, 130/143 interrupted.`;

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
      events: { type: 'string', default: 'check' },
      'receiver-url': { type: 'string' },
      'receiver-listen': { type: 'string' },
      'event-timeout': { type: 'string' },
      'cors-origin': { type: 'string' },
      'compressed-retries': { type: 'boolean' },
      rules: { type: 'boolean' },
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
if (args.rules && !args['base-url']) {
  const rules = ruleCoverage(document, undefined, undefined, CHECKS);
  // Written before exiting: a pipe (`| less`) would otherwise get only what fitted its buffer.
  await new Promise((done) => process.stdout.write(`${formatRules(rules)}\n`, done));
  process.exit(rules.uncovered.length === 0 ? 0 : 1);
}
const { profile, events } = args;
const listen = /^(?:(.+):)?(\d{1,5})$/.exec(args['receiver-listen'] ?? '127.0.0.1:0');
const problems = [
  events !== 'check' && events !== 'skip' && '--events must be check or skip',
  args['receiver-url'] && !/^https?:\/\//.test(args['receiver-url']) && '--receiver-url must be an http(s) URL',
  (!listen || Number(listen[2]) > 65535) && '--receiver-listen must be [host:]port',
  !args['base-url'] && '--base-url is required',
  args['base-url'] && !URL.canParse(args['base-url']) && '--base-url must be an absolute URL',
  !args['api-key'] && '--api-key is required',
  profile !== 'stateful' && profile !== 'stateless' && '--profile must be stateful or stateless',
  ...(['seed', 'cases', 'rate-probe-max', 'event-timeout'] as const).map((name) => args[name] !== undefined && !/^\d+$/.test(args[name]) && `--${name} must be a whole number`),
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
const baseUrl = args['base-url']!;
try {
  await fetch(baseUrl, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(10_000) });
} catch (error) {
  const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
  process.stderr.write(`secmon-contract: ${baseUrl} does not answer (${cause}); no check was run\n`);
  process.exit(2);
}

// Ctrl-C or a CI cancel: stop between checks, delete what was created, then exit. A second signal
// exits at once.
const controller = new AbortController();
let stoppedBy: NodeJS.Signals | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stoppedBy) process.exit(signal === 'SIGINT' ? 130 : 143);
    stoppedBy = signal;
    process.stdout.write(`\n${signal}: stopping after cleanup (deleting what the kit created; ${signal} again to quit at once)\n`);
    controller.abort();
  });
}

const started = performance.now();
process.stdout.write(`${VERSION}: ${profile} checks against ${baseUrl}\n\n`);
const run = await runKit(
  {
    baseUrl,
    apiKey: args['api-key']!,
    profile: profile as 'stateful' | 'stateless',
    events: events as 'check' | 'skip',
    receiverListen: { host: listen![1] ?? '127.0.0.1', port: Number(listen![2]) },
    ...(args['receiver-url'] ? { receiverUrl: args['receiver-url'] } : {}),
    ...(args['event-timeout'] ? { eventTimeoutMs: Number(args['event-timeout']) } : {}),
    ...(args['cors-origin'] ? { corsOrigin: args['cors-origin'] } : {}),
    ...(args['compressed-retries'] ? { skipRetryTiming: 'the target compresses its retry schedule (--compressed-retries)' } : {}),
    onWait: (ms, why) => process.stdout.write(`  … waiting ${(ms / 1000).toFixed(1)} s: ${why}\n`),
    ...(args['read-key'] ? { readKey: args['read-key'] } : {}),
    ...(args.seed ? { seed: Number(args.seed) } : {}),
    ...(args.cases ? { cases: Number(args.cases) } : {}),
    ...(args['rate-probe-max'] ? { rateProbeMaxQuota: Number(args['rate-probe-max']) } : {}),
  },
  {
    knownLimits,
    signal: controller.signal,
    onResult: (result, done, total) => {
      const why = result.outcome === 'skipped' || result.outcome === 'known-limit' ? `  (${result.outcome}: ${result.reason ?? ''})` : '';
      const note = result.note ? `  (${result.note})` : '';
      process.stdout.write(`${MARK[result.outcome]} [${done}/${total}] ${result.id}  ${result.ms} ms${why}${note}\n`);
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
  writeFileSync(report, junitReport(`secmon-contract (${profile})`, run.results, seconds));
}
if (args.rules) process.stdout.write(`\n${formatRules(run.coverage.rules)}\n`);
if (run.leftovers.length > 0) process.stdout.write(`\ncould not delete what the kit created: ${run.leftovers.join(', ')}\n`);
const waited = run.waitedMs > 0 ? `, ${(run.waitedMs / 1000).toFixed(1)} s of it waiting for the rate limit` : '';
process.stdout.write(
  `\n${run.table}\n\ncontract kit finished in ${seconds.toFixed(1)} s (${run.requests} requests${waited})${args.report ? `; JUnit report: ${resolve(args.report)}` : ''}\n`,
);
if (stoppedBy) process.exit(stoppedBy === 'SIGINT' ? 130 : 143);
process.exit(run.coverage.passed && run.results.length > 0 ? 0 : 1);
