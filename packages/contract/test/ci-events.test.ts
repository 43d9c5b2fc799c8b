// Events raised on an implementation without the simulator: by a trigger command, or declared out
// of scope, and the gate failing when neither.
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerInvocation } from '../src/kit/raise.ts';
import { type KitRun, runKit } from '../src/kit/runner.ts';
import { deliveriesOnly } from './ci-support.ts';
import { type ReferenceTarget, startReferenceTarget, WRITER_KEY } from './reference-target.ts';

const OUTSIDE = ['device.connected', 'device.disconnected', 'scan.completed'];

const gates = (run: KitRun) => [...new Set(run.results.flatMap((r) => (r.gate ? [r.gate] : [])))];

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
