// The development simulator: the route (auth, validation, development only) and the
// `npm run trigger` CLI against a running server, with events reaching a real receiver.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, parseEvent, validateEvent } from '../../packages/api/src/events.ts';
import { startReceiver, type TestReceiver } from '../../scripts/receiver.ts';
import { parseTriggerArgs } from '../../server/simulator/cli.ts';
import { PROBLEM, READER_KEY, readProblem, startTestServer, type TestServer, WRITER_KEY } from '../server/helpers.ts';
import { closeAfter, startDeliveringServer, subscribe } from './fixture.ts';

const CLI = fileURLToPath(new URL('../../server/simulator/cli.ts', import.meta.url));

let t: TestServer;
let receiver: TestReceiver;
const open = closeAfter('all');
beforeAll(async () => {
  t = open(await startDeliveringServer({ delivery: { concurrency: 8, perWebhookConcurrency: 4 } }));
  receiver = open(await startReceiver());
  await subscribe(t, { url: `${receiver.url}/sim`, events: ['scan.completed'] });
});

const simulate = (body: unknown, key = WRITER_KEY) =>
  t.fetch('/_simulator/events', { method: 'POST', json: body, headers: { authorization: `Bearer ${key}` } });

describe('POST /_simulator/events', () => {
  it.each(EVENT_TYPES)('emits a realistic, schema-valid %s', async (type) => {
    const response = await simulate({ event: type });
    expect(response.status).toBe(202);
    const { event, deliveries } = await response.json();
    expect(validateEvent(event)).toEqual({ valid: true });
    expect(event.event).toBe(type);
    expect(deliveries).toBe(type === 'scan.completed' ? 1 : 0);
  });

  it('applies overrides, nested ones included', async () => {
    const response = await simulate({
      event: 'device.disconnected',
      timestamp: '2026-01-02T03:04:05Z',
      data: { hostname: 'kiosk-9', reason: 'shutdown' },
    });
    const { event } = await response.json();
    expect(event).toMatchObject({ timestamp: '2026-01-02T03:04:05Z', data: { hostname: 'kiosk-9', reason: 'shutdown' } });
    const scan = await (await simulate({ event: 'scan.completed', data: { new_findings: { critical: 7 } } })).json();
    expect(scan.event.data.new_findings).toMatchObject({ critical: 7, info: expect.any(Number) });
  });

  it('answers 400 problems that point at the bad part', async () => {
    const unknown = await readProblem(await simulate({ event: 'device.rebooted' }));
    expect(unknown).toMatchObject({ status: 400, type: PROBLEM('validation-error') });
    expect(unknown.errors).toEqual([{ pointer: '/body/event', message: expect.stringContaining('scan.completed') }]);

    const badValue = await readProblem(await simulate({ event: 'scan.completed', data: { outcome: 'exploded' } }));
    expect(badValue.errors).toEqual([expect.objectContaining({ pointer: '/body/data/outcome' })]);

    const extra = await readProblem(await simulate({ event: 'scan.completed', data: { bogus: 1 } }));
    expect(extra.errors).toEqual([expect.objectContaining({ pointer: '/body/data/bogus' })]);

    const proto = await readProblem(await simulate(JSON.parse('{"event":"scan.completed","data":{"__proto__":{"x":1}}}')));
    expect(proto.errors).toEqual([expect.objectContaining({ pointer: '/body/data/__proto__' })]);

    expect((await simulate([1, 2])).status).toBe(400);

    const malformed = await t.fetch('/_simulator/events', {
      method: 'POST',
      body: '{"event":',
      headers: { 'content-type': 'application/json' },
    });
    expect((await readProblem(malformed)).type).toBe(PROBLEM('malformed-json'));
    const text = await t.fetch('/_simulator/events', {
      method: 'POST',
      body: 'event=scan.completed',
      headers: { 'content-type': 'text/plain' },
    });
    expect((await readProblem(text)).type).toBe(PROBLEM('unsupported-media-type'));
  });

  it('with webhook_id sends to that webhook only, and refuses one not subscribed to the type', async () => {
    const second = await t.fetch('/v1/webhooks', { method: 'POST', json: { url: `${receiver.url}/sim-2`, events: ['scan.completed'] } });
    const { id } = (await second.json()) as { id: string };
    try {
      expect((await (await simulate({ event: 'scan.completed' })).json()).deliveries).toBe(2);
      const targeted = await simulate({ event: 'scan.completed', webhook_id: id });
      expect(targeted.status).toBe(202);
      expect((await targeted.json()).deliveries).toBe(1);
      const notSubscribed = await readProblem(await simulate({ event: 'device.connected', webhook_id: id }));
      expect(notSubscribed).toMatchObject({ status: 400, type: PROBLEM('validation-error') });
      expect(notSubscribed.errors).toEqual([
        { pointer: '/body/webhook_id', message: expect.stringContaining('does not subscribe to device.connected') },
      ]);
    } finally {
      await t.fetch(`/v1/webhooks/${id}`, { method: 'DELETE' });
    }
  });

  it('needs a key with the write scope', async () => {
    const anonymous = await t.fetch('/_simulator/events', {
      method: 'POST',
      json: { event: 'scan.completed' },
      headers: { authorization: '' },
    });
    expect(anonymous.status).toBe(401);
    expect((await readProblem(await simulate({ event: 'scan.completed' }, READER_KEY))).type).toBe(PROBLEM('forbidden'));
  });

  it('does not exist in production mode', async () => {
    const production = await startTestServer({ mode: 'production' });
    try {
      const response = await production.fetch('/_simulator/events', { method: 'POST', json: { event: 'scan.completed' } });
      expect(response.status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run trigger (CLI)', () => {
  it('parses event type and --field value pairs, dotted paths and JSON scalars', () => {
    expect(
      parseTriggerArgs(['scan.completed', '--outcome', 'failed', '--new_findings.high', '3', '--timestamp', '2026-01-01T00:00:00Z']),
    ).toEqual({
      event: 'scan.completed',
      timestamp: '2026-01-01T00:00:00Z',
      data: { outcome: 'failed', new_findings: { high: 3 } },
    });
    expect(parseTriggerArgs(['finding.created', '--title', '"404"', '--policy_id', 'null']).data).toEqual({
      title: '404',
      policy_id: null,
    });
    expect(parseTriggerArgs(['scan.completed', '--webhook', 'whk_01jbz4c8d2e6f0g4h8j2k6m0n4', '--outcome', 'failed'])).toEqual({
      event: 'scan.completed',
      webhook_id: 'whk_01jbz4c8d2e6f0g4h8j2k6m0n4',
      data: { outcome: 'failed' },
    });
    expect(() => parseTriggerArgs(['device.rebooted'])).toThrow(/Unknown event type/);
    expect(() => parseTriggerArgs(['scan.completed', '--outcome'])).toThrow(/--field value/);
  });

  it('makes the running server deliver the event to a subscribed receiver', async () => {
    const before = receiver.receipts.length;
    const result = await runCli(['scan.completed', '--outcome', 'failed', '--new_findings.high', '3'], {
      SECMON_URL: t.url,
      SECMON_API_KEY: WRITER_KEY,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Emitted scan\.completed: 1 delivery queued\./);
    const receipts = await receiver.waitFor(before + 1);
    const event = parseEvent(receipts.at(-1)!.body);
    expect(event.event === 'scan.completed' && event.data).toMatchObject({ outcome: 'failed', new_findings: { high: 3 } });
  });

  it('--webhook sends to that webhook only, and refuses an id that does not subscribe to the type', async () => {
    const { data } = await (await t.fetch('/v1/webhooks?event=scan.completed')).json();
    const id = data[0].id as string;
    const before = receiver.receipts.length;
    const sent = await runCli(['scan.completed', '--webhook', id], { SECMON_URL: t.url, SECMON_API_KEY: WRITER_KEY });
    expect(sent.stdout).toContain(`Emitted scan.completed: 1 delivery queued for ${id} only.`);
    expect((await receiver.waitFor(before + 1)).at(-1)!.headers['x-service-webhook-id']).toBe(id);
    const refused = await runCli(['device.connected', '--webhook', id], { SECMON_URL: t.url, SECMON_API_KEY: WRITER_KEY });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`/body/webhook_id: webhook ${id} does not subscribe to device.connected (it receives scan.completed)`);
  });

  it('exits 1 with the problem when the server refuses, 2 on bad usage, 1 when nothing listens', async () => {
    const refused = await runCli(['scan.completed', '--outcome', 'exploded'], { SECMON_URL: t.url, SECMON_API_KEY: WRITER_KEY });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/400 .*\n {2}\/body\/data\/outcome: /);

    const usage = await runCli(['device.rebooted'], {});
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Unknown event type 'device\.rebooted'[\s\S]*Usage: npm run trigger/);

    const down = await runCli(['scan.completed'], { SECMON_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Cannot reach the SecMon server at http:\/\/127\.0\.0\.1:9/);
  });
});
