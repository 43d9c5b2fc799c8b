// The kit in another team's CI: a run planned from the target's quota and fitted to a time budget,
// events raised on an implementation without the simulator (a trigger command) or declared out of
// scope (and the gate failing when neither), other clients writing during the run, webhooks of
// others named before the run, and reports that say the same thing everywhere.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseQuota, planBudget, quotaWaitSeconds } from '../contract/kit/budget.ts';
import { createKitContext } from '../contract/kit/context.ts';
import { coverage as coverageOf, formatCoverage } from '../contract/kit/coverage.ts';
import { junitReport } from '../contract/kit/junit.ts';
import { planChecks } from '../contract/kit/plan.ts';
import { triggerInvocation } from '../contract/kit/raise.ts';
import { runCheck } from '../contract/kit/run-check.ts';
import { type KitRun, runKit } from '../contract/kit/runner.ts';
import { type ReferenceTarget, startReferenceTarget, WRITER_KEY } from './reference-target.ts';

const CLI = fileURLToPath(new URL('../contract/cli.ts', import.meta.url));
const OUTSIDE = ['device.connected', 'device.disconnected', 'scan.completed'];

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
}

const deliveriesOnly = { only: (planned: { check: string }) => planned.check === 'delivery' };
const gates = (run: KitRun) => [...new Set(run.results.flatMap((r) => (r.gate ? [r.gate] : [])))];

describe('fitting the quota', () => {
  it('reads RateLimit-Policy and RateLimit, and waits whole windows once the remaining requests are spent', () => {
    const headers = new Headers({ 'ratelimit-policy': '"120-in-1min"; q=120; w=60', ratelimit: '"120-in-1min"; r=100; t=42' });
    const quota = parseQuota(headers)!;
    expect(quota).toEqual({ limit: 120, windowSeconds: 60, remaining: 100, resetSeconds: 42 });
    expect(quotaWaitSeconds(100, quota)).toBe(0);
    expect(quotaWaitSeconds(101, quota)).toBe(42);
    expect(quotaWaitSeconds(220, quota)).toBe(42);
    expect(quotaWaitSeconds(221, quota)).toBe(102);
    expect(parseQuota(new Headers())).toBeUndefined();
  });

  it('samples every check down to the same number of cases that fits the budget, and never below one', () => {
    const ctx = createKitContext({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', readKey: 'r', profile: 'stateful' });
    // A production-mode target at 120 requests a minute, which cannot reach the kit's receiver.
    const plan = planChecks(ctx.model, { profile: 'stateful', hasReadKey: true, skipEvents: 'events skipped' });
    const quota = { limit: 120, windowSeconds: 60, remaining: 119, resetSeconds: 60 };
    const base = { cases: 24, quota, latencyMs: 5, hasReadKey: true, rateProbeMaxQuota: 300, eventSeconds: 0 };
    const unbudgeted = planBudget(plan, base);
    expect(unbudgeted.planned.cases).toBe(24);
    expect(unbudgeted.line()).toMatch(
      /^plan: \d+ checks \(\d+ planned as skipped\), about \d+ requests .*quota 120 per 60 s.*expected about \d+ min \d+ s$/,
    );
    // The plan counts what the summary will: every planned check, the skipped ones included.
    const skipped = plan.filter((p) => p.skip).length;
    expect(unbudgeted.line()).toContain(`plan: ${plan.length} checks (${skipped} planned as skipped),`);
    const fitted = planBudget(plan, { ...base, seconds: 180 });
    expect(fitted.planned.cases).toBeLessThan(24);
    expect(fitted.planned.seconds).toBeLessThanOrEqual(180);
    expect(fitted.line()).toContain(`sampled 24 → ${fitted.planned.cases} per check`);
    // One that reaches it (every check runs) fits 180 s too: the measured costs of the whole kit at
    // one case per check stay within two more windows.
    const everything = planBudget(planChecks(ctx.model, { profile: 'stateful', hasReadKey: true }), {
      ...base,
      seconds: 180,
      eventSeconds: 5,
    });
    expect(everything.line()).toContain('within --time-budget 180 s');
    const impossible = planBudget(plan, { ...base, seconds: 10 });
    expect(impossible.planned.cases).toBe(1);
    expect(impossible.line()).toContain('OVER --time-budget 10 s');
    // Repeats of a checked run are the same: the planned cases and the seeded samples.
    expect(planBudget(plan, { ...base, seconds: 180 }).planned).toEqual(fitted.planned);
  });

  it('reports the time a check waited for the quota beside its own time, in the result and in JUnit', async () => {
    let calls = 0;
    const stub = createServer((_req, res) => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json', ratelimit: `"stub"; r=${calls === 1 ? 0 : 5}; t=1` }).end('{}');
    });
    stub.listen(0, '127.0.0.1');
    await once(stub, 'listening');
    onTestFinished(() => void stub.close());
    const ctx = createKitContext({
      baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      apiKey: 'k',
      profile: 'stateful',
      events: 'skip',
    });
    const result = await runCheck(
      ctx,
      {
        id: 'stub › success-response',
        check: 'success-response',
        subjects: ['stub'],
        exercisesSuccess: true,
        run: async (c) => {
          await c.http.send({ method: 'GET', path: '/' });
          await c.http.send({ method: 'GET', path: '/' });
        },
      },
      { cases: 1 },
    );
    expect(result.outcome).toBe('passed');
    expect(result.waitedMs).toBeGreaterThanOrEqual(900);
    expect(result.ms).toBeLessThan(result.waitedMs!);
    expect(result.requests).toBe(2);
    const xml = junitReport('stub', [result], 2, result.waitedMs);
    expect(xml).toContain(`time="${(result.ms / 1000).toFixed(3)}"`);
    expect(xml).toMatch(/<system-out>waited 1\.\d s for the target&apos;s quota \(not in time\)<\/system-out>/);
    expect(xml).toMatch(/<property name="quota-wait-seconds" value="\d\.\d{3}"\/>/);
  });

  it('paces each key by its own quota: a read key used up (the 429 probe) does not hold the API key back', async () => {
    const stub = createServer((req, res) => {
      const read = req.headers.authorization === 'Bearer r';
      res.writeHead(200, { 'content-type': 'application/json', ratelimit: `"stub"; r=${read ? 0 : 50}; t=30` }).end('{}');
    });
    stub.listen(0, '127.0.0.1');
    await once(stub, 'listening');
    onTestFinished(() => void stub.close());
    const waits: string[] = [];
    const ctx = createKitContext({
      baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      apiKey: 'k',
      readKey: 'r',
      profile: 'stateful',
      events: 'skip',
      onWait: (_ms, why) => waits.push(why),
    });
    await ctx.http.send({ method: 'GET', path: '/', auth: 'read', acceptRateLimit: true });
    await ctx.http.send({ method: 'GET', path: '/', auth: 'api' });
    expect(waits).toEqual([]);
    expect(ctx.http.stats()).toMatchObject({ requests: 2, keyRequests: 1, waitedMs: 0 });
  });

  it('a run with a small quota and a small budget plans, samples, finishes within the budget and says what it sampled', async () => {
    // 400 a minute: the full run (about 1,000 requests) needs two more windows (over 120 s); fitted
    // to 100 s it samples down to what one more window holds, and waits at most that window.
    const target = await startReferenceTarget(400);
    onTestFinished(() => target.server.close());
    const run = await cli([
      '--base-url',
      target.server.url,
      '--api-key',
      target.kit.apiKey,
      '--read-key',
      target.kit.readKey!,
      '--time-budget',
      '100',
      '--rate-probe',
      'skip',
      '--compressed-retries',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const plan =
      /^plan: (\d+) checks \(1 planned as skipped\), about (\d+) requests .*quota 400 per 60 s.*within --time-budget 100 s; generated cases and repeats sampled 24 → (\d+) per check to fit$/m.exec(
        run.stdout,
      );
    expect(plan, run.stdout.slice(0, 800)).not.toBeNull();
    expect(Number(plan![2])).toBeLessThan(2 * 400);
    // The summary counts what the plan announced.
    expect(run.stdout).toContain(`${plan![1]} checks: `);
    expect(run.stdout).toMatch(
      /^sampled to fit --time-budget 100 s: \d+ checks ran with \d+(–\d+)? instead of 24 generated cases and repeats each/m,
    );
    expect((run.stdout.match(/waiting [\d.]+ s for the quota/g) ?? []).length).toBeLessThanOrEqual(1);
    expect(run.stdout).toMatch(/^contract kit finished in [\d.]+ s, within --time-budget 100 s \(/m);
    expect(run.stdout).toContain('gate PASSED');
  }, 150_000);
});

describe('raising events on any implementation', () => {
  let reference: ReferenceTarget;
  let standIn: ReturnType<typeof createServer>;
  let standInUrl: string;
  let scratch: string;

  beforeAll(async () => {
    reference = await startReferenceTarget();
    // An implementation without the simulator: the reference server behind a proxy that hides it.
    const upstream = new URL(reference.server.url);
    standIn = createServer((req, res) => {
      if (req.url?.startsWith('/_simulator')) {
        res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"type":"about:blank","title":"Not Found","status":404}');
        return;
      }
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    standIn.listen(0, '127.0.0.1');
    await once(standIn, 'listening');
    standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    scratch = mkdtempSync(join(tmpdir(), 'kit-trigger-'));
    // The "other way" an implementation raises events: here a script that asks the device side
    // (the reference server's simulator, out of the kit's sight) to send one to the kit's webhook.
    writeFileSync(
      join(scratch, 'raise.mjs'),
      `const [event, ids] = process.argv.slice(2);
// With own-ids, the device side makes up its own ids, as a device simulator would.
const data = ids === 'own-ids' ? {} : JSON.parse(process.env.SECMON_EVENT_DATA);
const response = await fetch(process.env.DEVICE_SIDE + '/_simulator/events', {
  method: 'POST',
  headers: { authorization: 'Bearer ${WRITER_KEY}', 'content-type': 'application/json' },
  body: JSON.stringify({ event, webhook_id: process.env.SECMON_WEBHOOK_ID, data }),
});
if (response.status !== 202) { console.error(response.status, await response.text()); process.exit(1); }
`,
    );
    process.env.DEVICE_SIDE = reference.server.url;
  });
  afterAll(async () => {
    delete process.env.DEVICE_SIDE;
    standIn?.close();
    await reference?.server.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('without the simulator or a trigger command, the outside events fail the gate with one line naming both ways out', async () => {
    const run = await runKit({ ...reference.kit, baseUrl: standInUrl }, deliveriesOnly);
    const outside = run.results.filter((r) => OUTSIDE.some((type) => r.subjects[0]!.includes(`webhook ${type}`)));
    expect(outside.map((r) => r.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(gates(run)).toEqual([
      `events the kit could not raise (${OUTSIDE.join(',')}) and nobody declared out of scope: give --trigger-command '<command with {event}>' that raises them, or declare them with --events skip:${OUTSIDE.join(',')}`,
    ]);
    expect(run.coverage.passed).toBe(false);
    expect(run.table).toContain(`✗ events the kit could not raise (${OUTSIDE.join(',')})`);
    expect(run.results.filter((r) => r.outcome === 'passed')).toHaveLength(3);
  }, 60_000);

  it('declared out of scope, they are skipped with the declaration and fail nothing', async () => {
    const run = await runKit({ ...reference.kit, baseUrl: standInUrl, eventsOutOfScope: OUTSIDE }, deliveriesOnly);
    expect(gates(run)).toEqual([]);
    expect(run.results.filter((r) => r.outcome === 'skipped').map((r) => r.reason)).toEqual(
      OUTSIDE.map(() => `declared out of scope (--events skip:${OUTSIDE.join(',')})`),
    );
    expect(run.results.filter((r) => r.outcome === 'passed')).toHaveLength(3);
  }, 60_000);

  it('--trigger-command raises all three on the implementation without the simulator, and their deliveries pass', async () => {
    const run = await runKit(
      { ...reference.kit, baseUrl: standInUrl, triggerCommand: `"${process.execPath}" ${join(scratch, 'raise.mjs')} {event}` },
      deliveriesOnly,
    );
    expect(run.results.map((r) => [r.id, r.outcome, r.error ?? r.reason])).toEqual(run.results.map((r) => [r.id, 'passed', undefined]));
    expect(run.results).toHaveLength(6);
  }, 60_000);

  it('a trigger command that raises events with ids of its own still gets them recognised, and the run says how', async () => {
    const run = await runKit(
      { ...reference.kit, baseUrl: standInUrl, triggerCommand: `"${process.execPath}" ${join(scratch, 'raise.mjs')} {event} own-ids` },
      deliveriesOnly,
    );
    expect(run.results.map((r) => [r.id, r.outcome, r.error ?? r.reason])).toEqual(run.results.map((r) => [r.id, 'passed', undefined]));
    const outside = run.results.filter((r) => OUTSIDE.some((type) => r.subjects[0]!.includes(`webhook ${type}`)));
    expect(outside.map((r) => r.note)).toEqual(
      OUTSIDE.map(
        (type) =>
          `recognised as the first ${type} on the kit's webhook after --trigger-command started (it did not carry the ids in {data})`,
      ),
    );
  }, 60_000);

  it('a trigger command gets its values shell-quoted in the placeholders and in the environment', () => {
    const { line, env } = triggerInvocation(`raise {event} --to {webhook_id} --data {data}`, 'http://t', {
      event: 'scan.completed',
      webhookId: 'whk_1',
      data: { scan_id: "scn_'x" },
    });
    expect(line).toBe(`raise 'scan.completed' --to 'whk_1' --data '{"scan_id":"scn_'\\''x"}'`);
    expect(env).toEqual({
      SECMON_EVENT: 'scan.completed',
      SECMON_WEBHOOK_ID: 'whk_1',
      SECMON_EVENT_DATA: '{"scan_id":"scn_\'x"}',
      SECMON_BASE_URL: 'http://t',
    });
  });

  it('a failing trigger command fails the check with its output', async () => {
    const run = await runKit(
      { ...reference.kit, baseUrl: standInUrl, triggerCommand: 'echo no device side for {event} >&2; exit 3' },
      { only: (planned) => planned.id.startsWith('scanCompleted') },
    );
    expect(run.results[0]!.outcome).toBe('failed');
    expect(run.results[0]!.error).toContain('ended with 3: no device side for scan.completed');
  }, 60_000);
});

describe('other clients and other subscribers on the same target', () => {
  let reference: ReferenceTarget;
  beforeAll(async () => {
    reference = await startReferenceTarget();
  });
  afterAll(() => reference?.server.close());

  const post = (path: string, body: unknown) =>
    fetch(`${reference.server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a second client writing findings throughout causes no failure; its deliveries on the kit’s webhook are ignored and counted', async () => {
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const created = await post('/v1/findings', {
          title: 'Other client finding',
          severity: 'high',
          device_id: 'dev_01jc4v7d3m9x8k2p5q6r7s8t9v',
        });
        if (created.status === 201) written++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    try {
      const run = await runKit(reference.kit, {
        only: (planned) => planned.check === 'delivery' || planned.id.startsWith('createFinding'),
      });
      expect(run.results.filter((r) => r.outcome !== 'passed').map((r) => r.error ?? r.reason)).toEqual([]);
      expect(run.foreignDeliveries).toBeGreaterThan(0);
    } finally {
      writing = false;
      await writer;
    }
    expect(written).toBeGreaterThan(10);
  }, 90_000);

  it('names the enabled webhooks of others its events will reach before the first check, and --no-foreign-deliveries refuses to run', async () => {
    const created = await post('/v1/webhooks', {
      url: 'http://127.0.0.1:9/hooks?token=operator-token-123',
      events: ['finding.created', 'device.connected'],
      secret: 'operator-secret-0123456789',
    });
    const { id } = (await created.json()) as { id: string };
    onTestFinished(async () => {
      await fetch(`${reference.server.url}/v1/webhooks/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${WRITER_KEY}` } });
    });
    const said: string[] = [];
    const refused = await runKit(reference.kit, {
      ...deliveriesOnly,
      noForeignDeliveries: true,
      onPreamble: (lines) => said.push(...lines),
    });
    expect(refused.refused).toBe(
      `--no-foreign-deliveries: 1 enabled webhook the kit did not create would get this run's events (${id}); no check was run`,
    );
    expect(refused.results).toEqual([]);
    // The simulator's events go to the kit's webhook only: device.connected is not listed.
    expect(said).toContain(`  ${id}: finding.created`);
    expect(said.join('\n')).not.toMatch(/operator-token|operator-secret|127\.0\.0\.1:9/);
    const run = await runKit(
      { ...reference.kit, events: 'skip' },
      { only: (planned) => planned.id === 'listPolicies (GET /v1/policies) › success-response' },
    );
    expect(run.foreign.webhooks).toEqual([{ id, reached: ['finding.created'] }]);
  }, 60_000);
});

describe('reports', () => {
  it('an interrupted run names the checks that did not run because of it, not as gaps of the document', async () => {
    const target = await startReferenceTarget();
    onTestFinished(() => target.server.close());
    const controller = new AbortController();
    const run = await runKit(
      { ...target.kit, events: 'skip' },
      {
        signal: controller.signal,
        onResult: (_result, done) => {
          if (done === 3) controller.abort();
        },
      },
    );
    expect(run.interrupted).toBe(true);
    const notRun = run.results.filter((r) => r.reason === 'not run: the run was interrupted before it');
    expect(notRun.length).toBe(run.results.length - 3);
    expect(run.table).not.toContain('GAP');
    expect(run.table).toContain(`✗ the run was interrupted: ${notRun.length} checks did not run`);
    expect(run.coverage.passed).toBe(false);
  }, 60_000);

  it('JUnit names each check as the console does, and the table has a legend for its columns', () => {
    const ctx = createKitContext({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', profile: 'stateful' });
    const plan = planChecks(ctx.model, { profile: 'stateful', hasReadKey: false });
    const results = plan.map((p) => ({
      id: p.id,
      check: p.check,
      subjects: p.subjects,
      exercisesSuccess: p.exercisesSuccess,
      outcome: 'passed' as const,
      ms: 1,
    }));
    const xml = junitReport('names', results, 1);
    for (const result of results) {
      const [subject, check] = result.id.split(' › ');
      expect(xml).toContain(`<testcase classname="${subject!.split(' ')[0]}" name="${check}"`);
    }
    const table = runTableOf(ctx.model, results);
    expect(table).toMatch(
      /Columns: ok = success-response, valid = valid-input, .*401key = unknown-key-401.*gone = use-after-delete.*avail = available-after-create|Columns: .*avail = available-after-create.*gone = use-after-delete/,
    );
  });

  it('every option of --help is in the kit README with an example', async () => {
    const help = await cli(['--help']);
    const options = [...new Set([...help.stdout.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]!))];
    expect(options.length).toBeGreaterThan(15);
    const readme = readFileSync(fileURLToPath(new URL('../contract/README.md', import.meta.url)), 'utf8');
    const examples = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
    expect(options.filter((option) => !new RegExp(`${option}(?![a-z-])`).test(examples))).toEqual([]);
  });
});

function runTableOf(model: Parameters<typeof coverageOf>[0], results: Parameters<typeof coverageOf>[1]): string {
  return formatCoverage(coverageOf(model, results));
}
