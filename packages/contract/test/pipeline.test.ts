// The kit as a CI owner runs it (`secmon-contract`, here its source CLI): it leaves the target
// holding what it held before — after a clean run, after an interrupted one —, runs against a
// production-mode target with events declared out of scope, answers a dead target in one line,
// paces itself by RateLimit, and accepts a retried delivery while refusing a reused delivery id.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { parseApiKeys, testConfig } from '../../../server/config.ts';
import { type RunningServer, startServer } from '../../../server/server.ts';
import { KIT_PREFIX } from '../src/kit/cases.ts';
import { groupByDeliveryId } from '../src/kit/checks/shared/delivery-groups.ts';
import { createKitContext } from '../src/kit/context.ts';
import { createHttpClient } from '../src/kit/http.ts';
import type { Delivery } from '../src/kit/receiver.ts';
import { contents, READER_KEY, type ReferenceTarget, startReferenceTarget, WRITER_KEY } from './reference-target.ts';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

interface Cli {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a process of its own, killed when the test that started it (`test`) finishes. */
function startCli(
  test: Pick<TestContext, 'onTestFinished'>,
  args: string[],
  onStdout?: (text: string, child: ReturnType<typeof spawn>) => void,
): Promise<Cli> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  test.onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    onStdout?.(stdout, child);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
}

// The 429 probe has its own test (reference.test.ts); these targets' quotas are too large to use up.
const kitArgs = (target: string) => [
  '--base-url',
  target,
  '--api-key',
  WRITER_KEY,
  '--read-key',
  READER_KEY,
  '--cases',
  '4',
  '--rate-probe',
  'skip',
  '--compressed-retries',
];

// Its runs compare the target's contents before and after: one at a time, beside the production target's.
describe.concurrent('the target holds what it held before', () => {
  let reference: ReferenceTarget;

  beforeAll(async () => {
    reference = await startReferenceTarget();
    // Something of the operator's own that must survive the run untouched.
    await fetch(`${reference.server.url}/v1/policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Operator policy', severity: 'low' }),
    });
  });
  afterAll(() => reference?.server.close());

  it('after a clean run', { concurrent: false, timeout: 120_000 }, async (test) => {
    const before = await contents(reference.server.url);
    const run = await startCli(test, kitArgs(reference.server.url));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/contract kit finished in [\d.]+ s \(\d+ requests, \d+ of them on the API key's quota\)/);
    expect(await contents(reference.server.url)).toEqual(before);
  });

  it('after a run stopped by SIGINT in the middle', { concurrent: false, timeout: 120_000 }, async (test) => {
    const before = await contents(reference.server.url);
    let interrupted = false;
    const run = await startCli(test, kitArgs(reference.server.url), (stdout, child) => {
      // Stop once the kit is inside the stateful checks, with resources of every kind created.
      if (!interrupted && /\[\d+\/\d+\] \w+ \(POST \/v1\/webhooks\) › valid-input/.test(stdout)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    expect(interrupted, run.stdout).toBe(true);
    expect(run.stdout).toContain('SIGINT: stopping after cleanup');
    expect(run.code).toBe(130);
    expect(await contents(reference.server.url)).toEqual(before);
  });

  it('names what it writes with a recognisable prefix, so leftovers of a killed run can be found', { concurrent: false }, async () => {
    const ctx = createKitContext({ ...reference.kit, events: 'skip' });
    const policies = ctx.model.resources.find((resource) => resource.name === 'policies')!;
    const bodies = (await ctx.validBodies(policies.create!, 8)) as { name: string }[];
    await ctx.cleanup();
    expect(bodies.every((body) => body.name.startsWith(KIT_PREFIX))).toBe(true);
  });
});

describe.concurrent('a production-mode target behind a rate limit', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(
      testConfig({
        mode: 'production',
        apiKeys: parseApiKeys(`${WRITER_KEY}:read+write,${READER_KEY}:read`),
        usingDefaultKeys: false,
        rateLimitPerMinute: 5_000,
      }),
    );
  });
  afterAll(() => server?.close());

  it('gets a clean verdict with the events declared out of scope, skipped with the reason in console and JUnit', async (test) => {
    const scratch = mkdtempSync(join(tmpdir(), 'kit-production-'));
    test.onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const junit = join(scratch, 'junit.xml');
    const before = await contents(server.url);
    const run = await startCli(test, [...kitArgs(server.url), '--events', 'skip', '--report', junit]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('gate PASSED');
    expect(run.stdout).toMatch(/– \[\d+\/\d+\] findingCreated \(webhook finding\.created\) › delivery .*events skipped \(--events skip\)/);
    const consoleSkipped = (run.stdout.match(/^– \[/gm) ?? []).length;
    expect(consoleSkipped).toBeGreaterThanOrEqual(6);
    const report = readFileSync(junit, 'utf8');
    expect(report).toMatch(new RegExp(`<testsuites [^>]*skipped="${consoleSkipped}"`));
    expect(report).toContain('<testcase classname="findingCreated" name="delivery"');
    expect(report).toMatch(/<skipped message="events skipped \(--events skip\)/);
    expect(await contents(server.url)).toEqual(before);
  }, 120_000);
});

describe('a target that does not answer', () => {
  it('gets one line and exit 2 before any check runs', async (test) => {
    const dead = createServer();
    dead.listen(0, '127.0.0.1');
    await once(dead, 'listening');
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const run = await startCli(test, ['--base-url', `http://127.0.0.1:${port}`, '--api-key', WRITER_KEY]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      `secmon-contract: http://127.0.0.1:${port} does not answer (connect ECONNREFUSED 127.0.0.1:${port}); no check was run`,
    ]);
    expect(run.stdout).toBe('');
  });
});

describe('pacing by the RateLimit header', () => {
  it('waits for the window to reset when r reaches 0, instead of provoking a 429, and says so', async () => {
    const arrivals: number[] = [];
    const stub = createServer((_req, res) => {
      arrivals.push(Date.now());
      res.writeHead(200, { 'content-type': 'application/json', ratelimit: `"stub"; r=${arrivals.length === 1 ? 0 : 5}; t=1` }).end('{}');
    });
    stub.listen(0, '127.0.0.1');
    await once(stub, 'listening');
    try {
      const waits: string[] = [];
      const http = createHttpClient({
        baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
        apiKey: 'k',
        onWait: (ms, why) => waits.push(`${ms} ${why}`),
      });
      await http.send({ method: 'GET', path: '/v1/policies' });
      await http.send({ method: 'GET', path: '/v1/policies' });
      expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(900);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toMatch(/^\d+ the RateLimit header says the quota is used up$/);
      expect(http.stats().requests).toBe(2);
      expect(http.stats().waitedMs).toBeGreaterThan(0);
    } finally {
      stub.close();
    }
  });
});

describe('deliveries grouped by X-Service-Delivery', () => {
  const delivery = (id: string, body: string): Delivery => ({
    path: '/events/x',
    method: 'POST',
    headers: { 'x-service-delivery': id },
    raw: Buffer.from(body),
    receivedAt: 0,
  });

  it('a retry with the same id and the same bytes is one delivery, counted as a retry', () => {
    const { groups, violations } = groupByDeliveryId([delivery('a', '{"n":1}'), delivery('b', '{"n":2}'), delivery('a', '{"n":1}')]);
    expect(violations).toEqual([]);
    expect(groups.map((group) => [group.id, group.retries])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
  });

  it('one id with two different bodies is a violation', () => {
    const { violations } = groupByDeliveryId([delivery('a', '{"n":1}'), delivery('a', '{"n":2}')]);
    expect(violations).toHaveLength(1);
    expect(violations[0]!.message).toContain('X-Service-Delivery a came with two different bodies');
  });
});
