// End to end: changes through the API (and the simulator for device and scan events) reach a
// real loopback receiver, signed, with the documented headers and schema-valid bodies.
import { beforeAll, describe, expect, it } from 'vitest';
import { USER_AGENT } from '../../common/delivery-headers.ts';
import { EVENT_TYPES, type EventType, parseEvent, validateEvent } from '../../packages/api/src/events.ts';
import { verifySignature } from '../../packages/api/src/signing.ts';
import { type Receipt, startReceiver, type TestReceiver } from '../../scripts/receiver.ts';
import { sleep, waitUntil } from '../../scripts/wait.ts';
import { DEVICE_ID, type TestServer } from '../server/helpers.ts';
import { closeAfter, startDeliveringServer, subscribe } from './fixture.ts';

const SECRET = 'whsec_delivery_test_0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestServer;
let receiver: TestReceiver;
const openForFile = closeAfter('all');
const open = closeAfter('each');

beforeAll(async () => {
  t = openForFile(await startDeliveringServer());
});

const createWebhook = (path: string, events: EventType[], extra: Record<string, unknown> = {}) =>
  subscribe(t, { url: `${receiver.url}${path}`, events, ...extra });

async function simulate(event: EventType, overrides: Record<string, unknown> = {}): Promise<void> {
  const response = await t.fetch('/_simulator/events', { method: 'POST', json: { event, ...overrides } });
  expect(response.status, await response.clone().text()).toBe(202);
}

/** Makes the server emit all six event types: three through the API, three through the simulator. */
async function emitAllSix(): Promise<void> {
  const policy = await (await t.fetch('/v1/policies', { method: 'POST', json: { name: 'ssh hardening', severity: 'high' } })).json();
  const created = await t.fetch('/v1/findings', {
    method: 'POST',
    json: { title: 'SSH root login enabled', severity: 'high', device_id: DEVICE_ID, policy_id: policy.id },
  });
  const finding = await created.json();
  const resolved = await t.fetch(`/v1/findings/${finding.id}`, {
    method: 'PUT',
    json: { title: 'SSH root login enabled', severity: 'high', policy_id: policy.id, status: 'resolved', resolution: { reason: 'fixed' } },
  });
  expect(resolved.status, await resolved.clone().text()).toBe(200);
  await simulate('device.connected');
  await simulate('device.disconnected');
  await simulate('scan.completed');
}

const byEvent = (receipts: Receipt[], type: string) => receipts.filter((receipt) => receipt.headers['x-service-event'] === type);

describe('delivery of every event type', () => {
  it('a subscribed receiver gets all six, signed, with the documented headers and valid bodies', async () => {
    receiver = open(await startReceiver());
    const webhook = await createWebhook('/all', [...EVENT_TYPES], { secret: SECRET });
    await emitAllSix();
    // finding.created, compliance.changed (flip to non_compliant), finding.resolved,
    // compliance.changed (back to compliant), and the three simulated events.
    const receipts = await receiver.waitFor(7);
    await sleep(100);
    expect(receipts).toHaveLength(7);

    for (const type of EVENT_TYPES) expect(byEvent(receipts, type).length, type).toBeGreaterThan(0);
    for (const receipt of receipts) {
      const type = receipt.headers['x-service-event'] as EventType;
      const event = parseEvent(receipt.body);
      expect(event.event).toBe(type);
      expect(validateEvent(JSON.parse(receipt.body.toString('utf8')))).toEqual({ valid: true });
      expect(receipt.headers['content-type']).toBe('application/json');
      expect(receipt.headers['user-agent']).toBe(USER_AGENT);
      expect(receipt.headers['user-agent']).toMatch(/^SecMon-Webhooks\/\d+\.\d+\.\d+/);
      expect(receipt.headers['x-service-webhook-id']).toBe(webhook);
      expect(receipt.headers['x-service-delivery']).toMatch(UUID);
      const signature = receipt.headers['x-service-signature'];
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verifySignature(receipt.body, signature, SECRET)).toBe(true);
      expect(verifySignature(receipt.body, signature, 'whsec_some_other_secret_000')).toBe(false);
      expect(verifySignature(Buffer.concat([receipt.body, Buffer.from(' ')]), signature, SECRET)).toBe(false);
    }
    expect(new Set(receipts.map((receipt) => receipt.headers['x-service-delivery'])).size).toBe(7);
    const [flip, back] = byEvent(receipts, 'compliance.changed').map((receipt) => parseEvent(receipt.body));
    expect([flip, back].map((event) => event!.event === 'compliance.changed' && event!.data.current_status).sort()).toEqual([
      'compliant',
      'non_compliant',
    ]);

    const read = async () => (await t.fetch(`/v1/webhooks/${webhook}`)).json();
    await waitUntil(async () => (await read()).last_delivery !== null);
    const after = await read();
    expect(after.last_delivery).toMatchObject({ status_code: 200, succeeded: true });
    expect(after.enabled).toBe(true);
  });

  it('only subscribed, enabled webhooks receive an event; no secret means no signature header', async () => {
    receiver = open(await startReceiver());
    const scans = await createWebhook('/scans', ['scan.completed']);
    await createWebhook('/devices', ['device.connected'], { secret: SECRET });
    await createWebhook('/disabled', ['scan.completed'], { secret: SECRET, enabled: false });
    await simulate('scan.completed', { data: { outcome: 'partial' } });
    const [receipt] = await receiver.waitFor(1);
    await sleep(300);
    expect(receiver.receipts).toHaveLength(1);
    expect(receipt!.path).toBe('/scans');
    expect(receipt!.headers['x-service-webhook-id']).toBe(scans);
    expect(receipt!.headers['x-service-signature']).toBeUndefined();
    const event = parseEvent(receipt!.body);
    expect(event.event === 'scan.completed' && event.data.outcome).toBe('partial');
  });
});
