// `npm run bench:diagnosis`: what the kit tells a team about one fault, end to end as the team meets
// it. The kit is packed and installed in a folder outside the repository and run against a stand-in
// implementation (the reference server behind the fault proxy, packages/contract/test/stand-in.ts,
// started as its own process) with one fault at a time: a list ignoring `limit`, a read answer
// missing a required field, a finding transition the life cycle forbids, a delivery with a wrong
// signature. For each: the kit's console output as printed; its first failure's replay run alone
// against a freshly started faulty stand-in ("reproduced", exit 1) and a correct one ("not
// reproduced", exit 0); the .http file the same way under the httpyac CLI; and JUnit's failing
// testcases, whose message must state the cause. A table at the end; exits 1 when a run does not
// come out as described. Not part of `npm test`: four kit runs take minutes.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createProject, machineNode, npmInstall, outsiderEnv, type Ran, run } from '../scripts/outsider.ts';
import { buildPackage, packPackage } from '../scripts/packages.ts';
import { root } from '../scripts/pipeline.ts';

const FAULTS = [
  { name: 'limit-ignored', what: 'a list ignoring `limit`', cause: /\blimit\b/ },
  { name: 'missing-field', what: 'a read answer missing a required field', cause: /`updated_at`/ },
  { name: 'forbidden-transition', what: 'a finding transition the life cycle forbids', cause: / → / },
  { name: 'wrong-signature', what: 'a delivery with a wrong signature', cause: /X-Service-Signature/ },
] as const;

// --keep: leave the project folder (JUnit files and replays of each run) for a look afterwards.
const keep = parseArgs({ options: { keep: { type: 'boolean', default: false } } }).values.keep;
const STAND_IN = join(root, 'packages/contract/test/stand-in.ts');
// A devDependency; SECMON_HTTPYAC names another install of its CLI.
const HTTPYAC = process.env.SECMON_HTTPYAC ?? join(root, 'node_modules/.bin/httpyac');
const env = outsiderEnv(machineNode());

interface StandIn {
  url: string;
  apiKey: string;
  readKey: string;
  stop(): Promise<void>;
}

/** A freshly started stand-in (its own process, a new database) with `fault`, once it has said where it listens. */
async function startStandIn(fault: string): Promise<StandIn> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=secmon-source', STAND_IN, fault], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await Promise.race([
    createInterface({ input: child.stdout! })
      [Symbol.asyncIterator]()
      .next()
      .then((next) => [next.value as string | undefined]),
    new Promise<never>((_resolve, reject) => child.once('exit', (code) => reject(new Error(`the stand-in exited with ${code}`)))),
  ]);
  const started = JSON.parse(line ?? '{}') as { url: string; apiKey: string; readKey: string };
  return {
    ...started,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `work` against a fresh stand-in and stops it after. */
async function against<T>(fault: string, work: (standIn: StandIn) => Promise<T>): Promise<T> {
  const standIn = await startStandIn(fault);
  try {
    return await work(standIn);
  } finally {
    await standIn.stop();
  }
}

const keysOf = (standIn: StandIn) => ({ SECMON_BASE_URL: standIn.url, SECMON_API_KEY: standIn.apiKey, SECMON_READ_KEY: standIn.readKey });

interface Verdict {
  said: 'reproduced' | 'not reproduced' | 'neither';
  code: number | null;
}

function verdictOf(ran: Ran): Verdict {
  const said = /^reproduced: /m.test(ran.output) ? 'reproduced' : /^not reproduced$/m.test(ran.output) ? 'not reproduced' : 'neither';
  return { said, code: ran.code };
}

/** A replay file run alone against a fresh stand-in with `fault`: the script with its runner, or the .http file with httpyac. */
function replayAgainst(file: string, fault: string): Promise<Verdict> {
  return against(fault, async (standIn) => {
    const dir = join(file, '..');
    const [command, args] = file.endsWith('.http')
      ? [HTTPYAC, ['send', file.slice(dir.length + 1), '--all', '-o', 'none']]
      : [file.endsWith('.mjs') ? 'node' : 'sh', [file]];
    return verdictOf(await run(command, args, { cwd: dir, env: { ...env, ...keysOf(standIn) }, timeoutMs: 120_000 }));
  });
}

const shows = (verdict: Verdict, faulty: boolean) =>
  faulty ? verdict.said === 'reproduced' && verdict.code !== 0 : verdict.said === 'not reproduced' && verdict.code === 0;
const cell = (verdict: Verdict, faulty: boolean) => `${shows(verdict, faulty) ? '✓' : '✗'} ${verdict.said} (${verdict.code})`;

if (!existsSync(HTTPYAC)) {
  process.stderr.write(`bench:diagnosis: no httpyac CLI at ${HTTPYAC} (npm ci installs the devDependency; SECMON_HTTPYAC names another)\n`);
  process.exit(2);
}
const project = createProject('diagnosis');
console.log(`packing secmon-contract and installing it in ${project}`);
await buildPackage('contract');
await npmInstall(project, [packPackage('contract', join(project, 'tarballs'))]);

const rows: string[][] = [];
let allAsDescribed = true;
for (const { name, what, cause } of FAULTS) {
  const out = join(project, name);
  mkdirSync(out);
  console.log(`\n=== ${what} (${name}) ===\n`);
  const kit = await against(name, (standIn) =>
    run(
      'npx',
      [
        '--no-install',
        'secmon-contract',
        ...['--base-url', standIn.url, '--api-key', standIn.apiKey, '--read-key', standIn.readKey],
        ...['--cases', '8', '--rate-probe', 'skip', '--compressed-retries', '--report', join(out, 'junit.xml')],
      ],
      { cwd: project, env, timeoutMs: 600_000 },
    ),
  );
  console.log(kit.output);
  const violations = Number(/^(\d+) contract violations?:/m.exec(kit.output)?.[1] ?? 0);
  const repro = join(out, 'repro');
  const written = existsSync(repro) ? readdirSync(repro).sort() : [];
  const script = written.find((file) => /\.(sh|mjs)$/.test(file));
  const http = script?.replace(/\.(sh|mjs)$/, '.http');
  const replays = script
    ? [
        cell(await replayAgainst(join(repro, script), name), true),
        cell(await replayAgainst(join(repro, script), 'correct'), false),
        cell(await replayAgainst(join(repro, http!), name), true),
        cell(await replayAgainst(join(repro, http!), 'correct'), false),
      ]
    : ['no replay', '', '', ''];
  const junit = existsSync(join(out, 'junit.xml')) ? readFileSync(join(out, 'junit.xml'), 'utf8') : '';
  const messages = [...junit.matchAll(/<failure message="([^"]*)"/g)].map((m) => m[1]!);
  const junitCell = `${messages.length} failing${messages.length === 1 && cause.test(messages[0]!) ? ', states the cause' : ''}`;
  // A fault's headline, not a check's progress line (`✗ [36/143] …`).
  const headline = /^✗ (?!\[\d)(.*)$/m.exec(kit.output)?.[1] ?? '(none)';
  const asDescribed =
    kit.code === 1 && violations === 1 && replays.every((c) => c.startsWith('✓')) && messages.length === 1 && cause.test(messages[0]!);
  allAsDescribed &&= asDescribed;
  rows.push([name, String(violations), script ?? '-', ...replays, junitCell, asDescribed ? 'yes' : 'NO', headline.slice(0, 110)]);
}

const header = [
  'fault',
  'violations',
  'replay',
  'script faulty',
  'script correct',
  '.http faulty',
  '.http correct',
  'JUnit',
  'as described',
  'headline',
];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
const line = (row: string[]) => row.map((text, i) => text.padEnd(widths[i]!)).join(' | ');
console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${rows.map(line).join('\n')}`);
if (keep) console.log(`\nthe runs' files (JUnit, replays) are in ${project}`);
else rmSync(project, { recursive: true, force: true });
process.exit(allAsDescribed ? 0 : 1);
