// The example receiver (examples/receiver): verified end to end against the reference server, and
// its refusals (bad signature, invalid body) and duplicate handling checked directly.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryHeaders } from '../../common/delivery-headers.ts';
import { createReceiverApp } from '../../examples/receiver/app.ts';
import type { WebhookEvent } from '../../packages/api/src/events.ts';
import { waitUntil } from '../../scripts/wait.ts';
import { deliveryWorker } from '../../server/webhooks/dispatcher.ts';
import { DEVICE_ID, startTestServer, type TestServer } from '../server/helpers.ts';

const SECRET = 'whsec_example_receiver_4f9a2c';
const MAIN = fileURLToPath(new URL('../../examples/receiver/main.ts', import.meta.url));

let t: TestServer;
let server: Server;
let url: string;
const logs: string[] = [];
const handled: { event: WebhookEvent; deliveryId: string }[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  server = createReceiverApp({ secret: SECRET, logger, onEvent: (event, deliveryId) => void handled.push({ event, deliveryId }) }).listen(
    0,
    '127.0.0.1',
  );
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  t = await startTestServer(
    { delivery: { retryScale: 0.001, timeoutMs: 2000, concurrency: 8, perWebhookConcurrency: 4 } },
    { workers: [deliveryWorker()] },
  );
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  server.close();
});

const body = JSON.stringify({
  event: 'device.connected',
  timestamp: '2026-11-02T09:30:00Z',
  data: { device_id: DEVICE_ID, hostname: 'web-01', platform: 'linux', ip_address: '203.0.113.7', connected_at: '2026-11-02T09:30:00Z' },
});
const post = (raw: string, headers: Record<string, string>) => fetch(url, { method: 'POST', headers, body: raw });
const signedInput = (raw: string, deliveryId: string, secret = SECRET) => ({
  body: raw,
  eventType: 'device.connected',
  deliveryId,
  webhookId: 'whk_01jbz3k7q2w9x8v6t5r4p3n2m1',
  secret,
});
const signed = (raw: string, deliveryId: string, secret = SECRET) => deliveryHeaders(signedInput(raw, deliveryId, secret));

describe('example receiver', () => {
  it('verifies and handles a real delivery from the reference server, never logging the secret', async () => {
    const webhook = await t.fetch('/v1/webhooks', { method: 'POST', json: { url, events: ['finding.created'], secret: SECRET } });
    expect(webhook.status).toBe(201);
    const finding = await (
      await t.fetch('/v1/findings', { method: 'POST', json: { title: 'USB storage allowed', severity: 'low', device_id: DEVICE_ID } })
    ).json();
    expect(await waitUntil(() => handled.some(({ event }) => event.event === 'finding.created')), 'finding.created handled').toBe(true);
    const { event } = handled.find((entry) => entry.event.event === 'finding.created')!;
    expect(event.event === 'finding.created' && event.data.finding_id).toBe(finding.id);
    expect(await waitUntil(() => logs.some((line) => line.includes('"received finding.created"'))), 'received line logged').toBe(true);
    expect(logs.join('\n')).not.toContain(SECRET);
    // The server records the 200 after the receiver answered: wait for it rather than race it.
    const { id } = await webhook.json();
    const read = async () => (await t.fetch(`/v1/webhooks/${id}`)).json();
    await waitUntil(async () => (await read()).last_delivery !== null);
    const after = await read();
    expect(after.last_delivery).toMatchObject({ status_code: 200, succeeded: true });
  });

  it('answers 401 to a missing, wrong or stale signature, 400 to a signed body that is not a valid event', async () => {
    const unsigned = signed(body, crypto.randomUUID(), '');
    expect((await post(body, unsigned)).status).toBe(401);
    expect((await post(body, signed(body, crypto.randomUUID(), 'whsec_not_the_right_one_00'))).status).toBe(401);
    // Signed over other bytes than those sent: the re-serialisation mistake.
    expect((await post(JSON.stringify(JSON.parse(body), null, 2), signed(body, crypto.randomUUID()))).status).toBe(401);
    // Signed correctly six minutes ago: a replay, past the 5-minute tolerance.
    const stale = deliveryHeaders({ ...signedInput(body, crypto.randomUUID()), timestamp: Math.floor(Date.now() / 1000) - 360 });
    expect((await post(body, stale)).status).toBe(401);
    expect(logs.some((line) => line.includes('"reason":"timestamp-out-of-tolerance"'))).toBe(true);
    const invalid = body.replace('"linux"', '42');
    const refused = await post(invalid, signed(invalid, crypto.randomUUID()));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/platform/);
  });

  it('acknowledges a retried delivery without handling it twice', async () => {
    const id = crypto.randomUUID();
    const before = handled.length;
    expect((await post(body, signed(body, id))).status).toBe(200);
    expect((await post(body, signed(body, id))).status).toBe(200);
    expect(handled.length - before).toBe(1);
    expect(handled.at(-1)!.deliveryId).toBe(id);
  });

  it('npm run receiver starts on the configured port and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', RECEIVER_PORT: '0', SECMON_WEBHOOK_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      expect(await waitUntil(() => output.includes('receiver listening'), 15_000), `no listening line: ${output}`).toBe(true);
      const listening = JSON.parse(output.split('\n').find((line) => line.includes('receiver listening'))!);
      expect(listening).toMatchObject({ verifying: true, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/) });
      const response = await fetch(listening.url, { method: 'POST', headers: signed(body, crypto.randomUUID()), body });
      expect(response.status).toBe(200);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      expect((await exited)[0]).toBe(0);
      expect(output).not.toContain(SECRET);
    } finally {
      // A failed step above must not leave the receiver running.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
