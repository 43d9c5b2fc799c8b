#!/usr/bin/env node
// `secmon-contract --base-url <url> --api-key <key> [options]` (in this repository: `npm run contract
// -- …`): runs every check of the contract kit against any implementation, one line per check as it
// goes, then every violation, the coverage table, and a JUnit file if asked; exits 1 on a violation.
// The document it checks against is the one bundled into it (`--version` names it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadDocument } from 'secmon-api/src/document';
import { usageError } from '../../../common/cli.ts';
import { formatAxisCoverage } from './kit/axes/index.ts';
import { formatSeconds } from './kit/budget.ts';
import { MARK } from './kit/coverage.ts';
import { faultsOf, reportedUnder, seenLine } from './kit/faults.ts';
import { junitReport } from './kit/junit.ts';
import { receiverCommand } from './kit/receiver-check.ts';
import { CHECK_NAMES, isCheckName } from './kit/registry.ts';
import { writeReproductions } from './kit/repro-files.ts';
import type { KnownLimit } from './kit/results.ts';
import { formatRules, ruleCoverage } from './kit/rules/trace.ts';
import { runKit } from './kit/runner.ts';
import { ACCEPTED, usage } from './kit/usage.ts';
import { type VersionJudge, versionJudge, versionScope } from './kit/version-judge.ts';
import { contractVersions } from './kit/versions.ts';

// `secmon-contract receiver …` checks a webhook receiver instead of an API (kit/receiver-check.ts).
if (process.argv[2] === 'receiver') {
  const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
  process.exit(await receiverCommand(process.argv.slice(3), process.env, { out: write(process.stdout), err: write(process.stderr) }));
}

const document = loadDocument();
const versions = contractVersions(document);
const VERSION = [
  `secmon-contract ${document.info.version} (checks ${document.info.title} ${document.info.version})`,
  `versions of the contract it can judge (--contract-version): ${versions.versions.join(', ')}`,
].join('\n');

function fail(problems: string | string[]): never {
  process.stderr.write(usageError('secmon-contract', problems));
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: ACCEPTED,
  }).values;
} catch (error) {
  fail((error as Error).message);
}
if (args.help) {
  process.stdout.write(`${usage()}\n`);
  process.exit(0);
}
if (args.version) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}
const sinceOf = (row: { at: string; text: string }) => versions.since(row.at, row.text);
if (args.rules && !args['base-url']) {
  let judge: VersionJudge;
  try {
    judge = versionJudge(document, args['contract-version']);
  } catch (error) {
    fail((error as Error).message);
  }
  const rules = ruleCoverage(document, undefined, undefined, undefined, versionScope(judge));
  // Written before exiting: a pipe (`| less`) would otherwise get only what fitted its buffer.
  await new Promise((done) => process.stdout.write(`${formatRules(rules, sinceOf)}\n`, done));
  process.exit(rules.uncovered.length === 0 ? 0 : 1);
}
const { profile, events } = args;
const listen = /^(?:(.+):)?(\d{1,5})$/.exec(args['receiver-listen'] ?? '127.0.0.1:0');
const declaredTypes = events.startsWith('skip:')
  ? events
      .slice('skip:'.length)
      .split(',')
      .map((type) => type.trim())
      .filter(Boolean)
  : [];
const knownTypes = Object.keys(document.webhooks ?? {});
const problems = [
  events !== 'check' && events !== 'skip' && !events.startsWith('skip:') && '--events must be check, skip or skip:<type>,<type>',
  ...declaredTypes
    .filter((type) => !knownTypes.includes(type))
    .map((type) => `--events skip: ${type} is not an event type of the document (${knownTypes.join(', ')})`),
  args['rate-probe'] !== 'check' && args['rate-probe'] !== 'skip' && '--rate-probe must be check or skip',
  args['trigger-command'] !== undefined &&
    !args['trigger-command'].includes('{event}') &&
    !/\bSECMON_EVENT\b/.test(args['trigger-command']) &&
    '--trigger-command must use {event} (or $SECMON_EVENT)',
  args['receiver-url'] && !/^https?:\/\//.test(args['receiver-url']) && '--receiver-url must be an http(s) URL',
  (!listen || Number(listen[2]) > 65535) && '--receiver-listen must be [host:]port',
  args['contract-version'] !== undefined &&
    !versions.versions.includes(args['contract-version']) &&
    `--contract-version must be one of the versions this kit judges: ${versions.versions.join(', ')}`,
  !args['base-url'] && '--base-url is required',
  args['base-url'] && !URL.canParse(args['base-url']) && '--base-url must be an absolute URL',
  !args['api-key'] && '--api-key is required',
  profile !== 'stateful' && profile !== 'stateless' && '--profile must be stateful or stateless',
  args['time-budget'] !== undefined &&
    (!/^\d+$/.test(args['time-budget']) || Number(args['time-budget']) === 0) &&
    '--time-budget must be a whole number of seconds over 0',
  ...(['seed', 'cases', 'rate-probe-max', 'event-timeout'] as const).map(
    (name) => args[name] !== undefined && !/^\d+$/.test(args[name]) && `--${name} must be a whole number`,
  ),
].filter(Boolean);
if (problems.length > 0) fail(problems as string[]);

let knownLimits: KnownLimit[] = [];
if (args['known-limits']) {
  try {
    knownLimits = JSON.parse(readFileSync(resolve(args['known-limits']), 'utf8')) as KnownLimit[];
  } catch (error) {
    fail(`--known-limits: ${(error as Error).message}`);
  }
  const unknown = knownLimits.map((limit) => String(limit.check)).filter((check) => !isCheckName(check));
  if (unknown.length > 0) fail(`--known-limits: no such check: ${unknown.join(', ')} (the checks: ${CHECK_NAMES.join(', ')})`);
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
const judged = args['contract-version'] ?? versions.versions.at(-1)!;
process.stdout.write(
  `secmon-contract ${document.info.version}: ${profile} checks of ${document.info.title} ${judged} against ${baseUrl}\n\n`,
);
const run = await runKit(
  {
    baseUrl,
    apiKey: args['api-key']!,
    profile: profile as 'stateful' | 'stateless',
    events: events === 'skip' ? 'skip' : 'check',
    ...(declaredTypes.length > 0 ? { eventsOutOfScope: declaredTypes } : {}),
    ...(args['trigger-command'] ? { triggerCommand: args['trigger-command'] } : {}),
    receiverListen: { host: listen![1] ?? '127.0.0.1', port: Number(listen![2]) },
    ...(args['receiver-url'] ? { receiverUrl: args['receiver-url'] } : {}),
    ...(args['event-timeout'] ? { eventTimeoutMs: Number(args['event-timeout']) } : {}),
    ...(args['cors-origin'] ? { corsOrigin: args['cors-origin'] } : {}),
    ...(args['compressed-retries'] ? { skipRetryTiming: 'the target compresses its retry schedule (--compressed-retries)' } : {}),
    ...(args['allow-newer-fields'] ? { allowNewerFields: true } : {}),
    onWait: (ms, why) => process.stdout.write(`  … waiting ${(ms / 1000).toFixed(1)} s for the quota: ${why}\n`),
    ...(args['read-key'] ? { readKey: args['read-key'] } : {}),
    ...(args.seed ? { seed: Number(args.seed) } : {}),
    ...(args.cases ? { cases: Number(args.cases) } : {}),
    ...(args['rate-probe-max'] ? { rateProbeMaxQuota: Number(args['rate-probe-max']) } : {}),
  },
  {
    knownLimits,
    signal: controller.signal,
    ...(args['time-budget'] ? { timeBudgetSeconds: Number(args['time-budget']) } : {}),
    ...(args['no-foreign-deliveries'] ? { noForeignDeliveries: true } : {}),
    ...(args['rate-probe'] === 'skip' ? { skipRateProbe: 'declared out of scope (--rate-probe skip)' } : {}),
    ...(args['contract-version'] ? { contractVersion: args['contract-version'] } : {}),
    onPreamble: (lines) => process.stdout.write(`${lines.join('\n')}\n\n`),
    onResult: (result, done, total) => {
      const why = result.outcome === 'skipped' || result.outcome === 'known-limit' ? `  (${result.outcome}: ${result.reason ?? ''})` : '';
      const note = result.note ? `  (${result.note})` : '';
      const waited = result.waitedMs ? ` (+ ${(result.waitedMs / 1000).toFixed(1)} s waiting for the quota)` : '';
      process.stdout.write(`${MARK[result.outcome]} [${done}/${total}] ${result.id}  ${result.ms} ms${waited}${why}${note}\n`);
    },
  },
);
const seconds = (performance.now() - started) / 1000;
if (run.refused) {
  process.stderr.write(`secmon-contract: ${run.refused}\n`);
  process.exit(2);
}

// One report per fault, under the operation whose answers show it, with where else it was seen.
const faults = faultsOf(run.results);
const reported = reportedUnder(faults);
const reproDir = args['repro-dir'] ?? (args.report ? join(dirname(args.report), 'repro') : undefined);
const carriers = run.results.filter((r) => reported.has(r.id));
const scripts = reproDir ? writeReproductions(resolve(reproDir), carriers) : new Map<string, string>();
if (faults.length > 0) {
  process.stdout.write(`\n${faults.length} contract violation${faults.length === 1 ? '' : 's'}:\n\n`);
  for (const result of carriers) {
    const script = scripts.get(result.id);
    const heads = reported.get(result.id)!.flatMap((fault) => [`✗ ${fault.headline}`, seenLine(fault)]);
    process.stdout.write(
      `${heads.join('\n')}\n${result.error}\n${script ? `  replay: ${result.reproduction!.runner} ${script} (and ${script.replace(/\.(sh|mjs)$/, '.http')})\n` : ''}\n`,
    );
  }
}
if (args.report) {
  const report = resolve(args.report);
  mkdirSync(dirname(report), { recursive: true });
  writeFileSync(report, junitReport(`secmon-contract (${profile})`, run.results, seconds, run.waitedMs));
}
if (args.rules) process.stdout.write(`\n${formatRules(run.coverage.rules, sinceOf)}\n`);
if (args.coverage) process.stdout.write(`\n${formatAxisCoverage(run.axes)}\n`);
if (run.leftovers.length > 0) process.stdout.write(`\ncould not delete what the kit created: ${run.leftovers.join(', ')}\n`);
const waited = run.waitedMs > 0 ? `, ${formatSeconds(run.waitedMs / 1000)} of it waiting for the quota` : '';
const others =
  run.foreign.webhooks.length > 0
    ? `\n${run.foreign.webhooks.length} webhook${run.foreign.webhooks.length === 1 ? '' : 's'} the kit did not create got this run's events: ${run.foreign.webhooks.map((w) => `${w.id} (${w.reached.join(', ')})`).join(', ')}`
    : '';
const ignored =
  run.foreignDeliveries > 0
    ? `\n${run.foreignDeliveries} deliver${run.foreignDeliveries === 1 ? 'y' : 'ies'} on the kit's webhooks of events it did not cause (another client of the target) ignored`
    : '';
const sampled = run.sampled ? `\n${run.sampled}` : '';
const budget = args['time-budget'] === undefined ? undefined : Number(args['time-budget']);
const verdict = budget === undefined ? '' : `, ${seconds <= budget ? 'within' : 'OVER'} --time-budget ${budget} s`;
process.stdout.write(
  `\n${run.table}\n${sampled}${others}${ignored}\n\ncontract kit finished in ${seconds.toFixed(1)} s${verdict} (${run.requests} requests, ${run.keyRequests} of them on the API key's quota${waited})${args.report ? `; JUnit report: ${resolve(args.report)}` : ''}\n`,
);
if (stoppedBy) process.exit(stoppedBy === 'SIGINT' ? 130 : 143);
process.exit(run.coverage.passed && run.results.length > 0 ? 0 : 1);
