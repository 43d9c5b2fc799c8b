// secmon-contract as an implementer meets it: packed, installed from its tarball into a fresh project
// outside this repository, and run there with `npx --no-install` (as the guides say, so a broken
// install fails rather than fetch a package of that name from the registry) on the machine's own
// Node against the reference server and against receivers.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createReceiverApp } from '../../examples/receiver/app.ts';
import { machineNode, outsiderEnv, type Ran, run } from '../../scripts/outsider.ts';
import { root } from '../../scripts/pipeline.ts';
import { document, readmeExample } from './examples.ts';
import { installedBeforeAll, installedBin, listen } from './installed.ts';

describe.concurrent('secmon-contract, the contract kit', () => {
  const kit = installedBeforeAll('contract', (tarballs) => [tarballs.contract]);

  it('npx secmon-contract --version names the document it carries and the versions it can judge', async () => {
    const result = await run('npx', ['--no-install', 'secmon-contract', '--version'], { cwd: kit.dir });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout.trim()).toBe(
      [
        `secmon-contract ${document.info.version} (checks ${document.info.title} ${document.info.version})`,
        'versions of the contract it can judge (--contract-version): 1.0.0, 1.1.0',
      ].join('\n'),
    );
  });

  // npm start as a newcomer runs it (development mode, its default keys), on a free port and a
  // throw-away database, then the README's kit line as printed against it, with `--coverage` (which
  // only adds the behaviour-space table to what it prints): one run, read by the three tests below. The probe spends the read key's whole quota: 3,000 a minute (the run's other
  // requests on one key stay under 1,000) proves the same probe as the default 10,000 at a third of
  // the requests, and a loaded machine never sees the window run out mid-probe. That the default
  // stays within the probe's reach on the loopback is test/unit/kit-rate-probe.test.ts's.
  let readmeRun: Promise<{ line: string; result: Ran }> | undefined;
  let npmStart: ChildProcess | undefined;
  afterAll(() => void (npmStart?.exitCode === null && process.kill(-npmStart.pid!, 'SIGTERM')));
  const readmeLineOnNpmStart = () => (readmeRun ??= startAndRunReadmeLine());
  async function startAndRunReadmeLine(): Promise<{ line: string; result: Ran }> {
    const server = spawn('npm', ['start', '--', '--port', '0', '--db', ':memory:', '--rate-limit', '3000'], {
      cwd: root,
      env: Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SECMON_'))),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    npmStart = server;
    let log = '';
    server.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await expect.poll(() => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(log)?.[1], { timeout: 60_000, interval: 200 }).toBeDefined();
    const port = /"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(log)![1]!;
    const line = readmeExample('contract', 'sh')
      .split('\n')
      .find((text) => text.startsWith('npx --no-install secmon-contract --base-url http://127.0.0.1:3000 '))!;
    const result = await run('sh', ['-c', `${line.replace(':3000', `:${port}`)} --coverage`], {
      cwd: kit.dir,
      env: { ...outsiderEnv(machineNode()), RW_KEY: 'dev-admin', RO_KEY: 'dev-reader' },
      timeoutMs: 240_000,
    });
    return { line, result };
  }

  it('npx secmon-contract passes against the reference server on the machine’s Node and writes JUnit in the caller’s folder', async () => {
    const { line, result } = await readmeLineOnNpmStart();
    expect(line).toContain(' --report junit.xml');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('gate PASSED');
    const junit = readFileSync(join(kit.dir, 'junit.xml'), 'utf8');
    const tests = Number(/<testsuites [^>]*tests="(\d+)"/.exec(junit)?.[1]);
    expect(tests).toBeGreaterThan(50);
    expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
    expect(junit.match(/<testcase /g)).toHaveLength(tests);
  }, 300_000);

  it('npm start, then the README’s kit line as printed (the development keys), passes the gate, 429 probe included', async () => {
    const { line, result } = await readmeLineOnNpmStart();
    // The front door prints the same line for the same pair.
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`${line}\n`);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/\d+ checks: (\d+) passed, 0 failed, 0 skipped, 0 known limits — gate PASSED/);
    expect(result.output).toMatch(/✓ \[\d+\/\d+\] listPolicies \(GET \/v1\/policies\) › rate-limit-429/);
    // Each receiver-answers webhook gets its own raised event, so no other check's event comes after
    // the retry and last_delivery is judged on all of them, in a whole run too.
    expect(result.output).toMatch(/› receiver-answers .*raised for each of the 11 webhooks alone; last_delivery judged on each\)/);
  }, 300_000);

  it('the default run exercises every cell of the behaviour space a run from outside can reach', async () => {
    const { result } = await readmeLineOnNpmStart();
    const space = result.output.slice(result.output.indexOf('Behaviour space'));
    expect(
      result.output.split('\n').filter((line) => line.startsWith('✗ ')),
      space,
    ).toEqual([]);
    expect(space.match(/^.*NOT exercised$/gm) ?? [], space).toEqual([]);
    const [, exercised, reachable] = /^(\d+) of (\d+) cells exercised/m.exec(space) ?? [];
    expect(Number(exercised)).toBeGreaterThan(0);
    expect(exercised).toBe(reachable);
  }, 300_000);

  it('npx secmon-contract receiver passes the example receiver and fails one that accepts everything', async () => {
    const secret = 'whsec_outsider_receiver_check';
    const example = createServer(createReceiverApp({ secret, logger: pino({ level: 'silent' }) }));
    const acceptsAll = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
    const [exampleUrl, acceptsAllUrl] = await Promise.all([listen(example), listen(acceptsAll)]);
    try {
      const check = (url: string) =>
        run('npx', ['--no-install', 'secmon-contract', 'receiver', '--url', `${url}/webhooks`], {
          cwd: kit.dir,
          env: { ...outsiderEnv(machineNode()), SECMON_WEBHOOK_SECRET: secret },
        });
      const passed = await check(exampleUrl);
      expect(passed.code, passed.output).toBe(0);
      expect(passed.output).toMatch(/receiver PASSED: 12 of 12 cases hold/);
      const failed = await check(acceptsAllUrl);
      expect(failed.code, failed.output).toBe(1);
      expect(failed.output).toMatch(/receiver FAILED: 7 of 12 cases hold/);
    } finally {
      example.close();
      acceptsAll.close();
    }
  }, 60_000);

  // The installed bin, as npm links it: npx's own part is proven by the runs above, and each npx
  // start is an npm start-up (about a second of CPU).
  it('answers --help and -h with its usage, and bad options with exit 2 and a pointer to --help', async () => {
    const bin = installedBin(kit.dir, 'secmon-contract');
    const result = await run(bin, ['--api-key', 'k'], { cwd: kit.dir });
    expect(result.code).toBe(2);
    expect(result.output).toContain('secmon-contract: --base-url is required');
    expect(result.output).toContain("Run 'secmon-contract --help' for its usage.");
    for (const flag of ['--help', '-h']) {
      const help = await run(bin, [flag], { cwd: kit.dir });
      expect(help.code, flag).toBe(0);
      expect(help.stdout).toMatch(/^usage: secmon-contract --base-url/);
    }
  }, 60_000);
});
