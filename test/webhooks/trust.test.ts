// What integrators trust a delivery by, end to end on both stores: the Standard Webhooks
// headers verify with the `standardwebhooks` library and X-Service-Signature with GitHub's
// @octokit/webhooks-methods; a replaced secret keeps verifying for 24 hours; removing the secret
// stops signing at once; a test event reaches only its webhook; invented keys get 429s.
import { verify as verifyGithub } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { standardWebhooksKey } from '../../packages/api/src/standard-webhooks.ts';
import { verifyWebhook, WebhookVerificationError } from '../../packages/api/src/verify-webhook.ts';
import { replacedWebhook } from '../../packages/core/src/domain/webhooks.ts';
import { type Receipt, startReceiver, type TestReceiver } from '../../scripts/receiver.ts';
import { PROBLEM, readProblem, startTestServer, type TestServer, WRITER_KEY } from '../server/helpers.ts';
import { closeAfter, startDeliveringServer, subscribe } from './fixture.ts';

const OLD = 'whsec_old_secret_0123456789abcdef';
const NEW = 'whsec_new_secret_fedcba9876543210';
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestServer;
let receiver: TestReceiver;
const open = closeAfter('all');
beforeAll(async () => {
  t = open(await startDeliveringServer({ delivery: { concurrency: 8, perWebhookConcurrency: 4 } }));
  receiver = open(await startReceiver(204));
});

const createWebhook = (path: string, body: Record<string, unknown>) =>
  subscribe(t, { url: `${receiver.url}${path}`, events: ['scan.completed'], ...body });

async function put(id: string, body: Record<string, unknown>): Promise<void> {
  const response = await t.fetch(`/v1/webhooks/${id}`, {
    method: 'PUT',
    json: { url: `${receiver.url}/${id}`, events: ['scan.completed'], ...body },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(await response.text()).not.toMatch(/whsec_/);
}

/** A test event to one webhook, and its delivery as the receiver got it. */
async function deliveryTo(id: string): Promise<Receipt> {
  const before = receiver.receipts.length;
  const response = await t.fetch('/_simulator/events', { method: 'POST', json: { event: 'scan.completed', webhook_id: id } });
  expect(response.status, await response.clone().text()).toBe(202);
  expect((await response.json()).deliveries).toBe(1);
  const receipts = await receiver.waitFor(before + 1);
  return receipts.at(-1)!;
}

const standard = (receipt: Receipt, secret: string, headers: Record<string, unknown> = receipt.headers) =>
  new Webhook(standardWebhooksKey(secret)).verify(receipt.body.toString('utf8'), headers as Record<string, string>);
const signatures = (receipt: Receipt) => String(receipt.headers['webhook-signature']).split(' ');
const github = (receipt: Receipt, secret: string) =>
  verifyGithub(secret, receipt.body.toString('utf8'), receipt.headers['x-service-signature'] as string);

describe('a signed delivery', () => {
  it('verifies with the standardwebhooks library, with @octokit/webhooks-methods and with verifyWebhook', async () => {
    const id = await createWebhook(`/signed`, { secret: NEW });
    const receipt = await deliveryTo(id);
    expect(receipt.headers['webhook-id']).toBe(receipt.headers['x-service-delivery']);
    expect(Math.abs(Number(receipt.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(receipt.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(standard(receipt, NEW)).toMatchObject({ event: 'scan.completed' });
    expect(await github(receipt, NEW)).toBe(true);
    expect(verifyWebhook(receipt.body, receipt.headers, NEW).event).toBe('scan.completed');
    expect(() => standard(receipt, OLD)).toThrow(/No matching signature/);
    expect(await github(receipt, OLD)).toBe(false);
  });
});

describe('secret rotation', () => {
  it('after a PUT replaces the secret, deliveries verify with the old and the new one; X-Service-Signature only with the new', async () => {
    const id = await createWebhook(`/rotated`, { secret: OLD });
    await put(id, { secret: NEW });
    const receipt = await deliveryTo(id);
    const entries = signatures(receipt);
    expect(entries).toHaveLength(2);
    expect(standard(receipt, NEW)).toMatchObject({ event: 'scan.completed' });
    expect(standard(receipt, OLD)).toMatchObject({ event: 'scan.completed' });
    // Newest first: the first entry is the new secret's.
    expect(() => standard(receipt, OLD, { ...receipt.headers, 'webhook-signature': entries[0] })).toThrow(/No matching signature/);
    expect(standard(receipt, NEW, { ...receipt.headers, 'webhook-signature': entries[0] })).toMatchObject({ event: 'scan.completed' });
    expect(await github(receipt, NEW)).toBe(true);
    expect(await github(receipt, OLD)).toBe(false);
    // Nothing stored about either secret comes back, and neither is logged.
    const read = await (await t.fetch(`/v1/webhooks/${id}`)).text();
    expect(read).not.toContain(OLD.slice(6));
    expect(read).not.toContain(NEW.slice(6));
    expect(t.logs.join('\n')).not.toMatch(/old_secret|new_secret/);
  });

  it('the old secret stops verifying 24 hours after the replacement', async () => {
    const id = await createWebhook(`/expired`, { secret: OLD });
    // The replacement as the store records it, a day and a minute ago.
    const replacedAt = new Date(Date.now() - DAY_MS - 60_000).toISOString();
    const { store } = t.server.app;
    await store.webhooks.replace(
      replacedWebhook(
        (await store.webhooks.get(id))!,
        { url: `${receiver.url}/expired`, events: ['scan.completed'], secret: NEW },
        replacedAt,
      ),
    );
    const receipt = await deliveryTo(id);
    expect(signatures(receipt)).toHaveLength(1);
    expect(standard(receipt, NEW)).toMatchObject({ event: 'scan.completed' });
    expect(() => standard(receipt, OLD)).toThrow(/No matching signature/);
  });

  it('re-sending the current secret or omitting it keeps the overlap; removing it stops signing with either secret at once', async () => {
    const id = await createWebhook(`/removed`, { secret: OLD });
    await put(id, { secret: NEW });
    await put(id, { secret: NEW, description: 'same secret again' });
    await put(id, { description: 'secret omitted' });
    expect(signatures(await deliveryTo(id))).toHaveLength(2);
    await put(id, { secret: null });
    const receipt = await deliveryTo(id);
    for (const header of ['webhook-signature', 'x-service-signature']) expect(receipt.headers[header], header).toBeUndefined();
    expect(receipt.headers['webhook-id']).toBe(receipt.headers['x-service-delivery']);
    expect(() => verifyWebhook(receipt.body, receipt.headers, OLD)).toThrow(expect.objectContaining({ reason: 'missing-signature' }));
    // A secret set again later starts without any previous one.
    await put(id, { secret: NEW });
    expect(signatures(await deliveryTo(id))).toHaveLength(1);
  });
});

describe('test events for one webhook', () => {
  it('reach only the webhook they name, although another one subscribes to the type', async () => {
    const target = await createWebhook('/target', {});
    const other = await createWebhook('/other', {});
    const receipt = await deliveryTo(target);
    expect(receipt.path).toBe('/target');
    expect(receipt.headers['x-service-webhook-id']).toBe(target);
    const deliveries = await t.server.app.store.outbox.listDeliveries(other);
    expect(deliveries).toEqual([]);
  });

  it('are refused with a problem naming the webhook when it is unknown, not subscribed to the type, or disabled', async () => {
    const id = await createWebhook('/picky', { events: ['device.connected'] });
    const send = async (webhook_id: unknown, event = 'scan.completed') =>
      readProblem(await t.fetch('/_simulator/events', { method: 'POST', json: { event, webhook_id } }));
    const unknown = await send('whk_01jbz4c8d2e6f0g4h8j2k6m0n4');
    expect(unknown).toMatchObject({ status: 400, type: PROBLEM('validation-error') });
    expect(unknown.errors).toEqual([{ pointer: '/body/webhook_id', message: 'no webhook has the id whk_01jbz4c8d2e6f0g4h8j2k6m0n4' }]);
    expect((await send(id)).errors).toEqual([
      { pointer: '/body/webhook_id', message: `webhook ${id} does not subscribe to scan.completed (it receives device.connected)` },
    ]);
    expect((await send('https://example.com/hook')).errors?.[0]?.message).toMatch(/must be a webhook id/);
    await put(id, { events: ['device.connected'], enabled: false });
    expect((await send(id, 'device.connected')).errors?.[0]?.message).toMatch(/is disabled/);
  });
});

describe('failed authentication per address', () => {
  it('40 invented keys from one address: 10 get 401, the rest 429 with Retry-After; a valid key from it still works', async () => {
    const guarded = await startTestServer({ authFailuresPerMinute: 10 });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 40; i++) {
        last = await guarded.fetch('/v1/policies', { headers: { authorization: `Bearer invented-key-${i}-${Math.random()}` } });
        statuses.push(last.status);
        if (i < 39) await last.arrayBuffer();
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(30).fill(429));
      const problem = await readProblem(last!);
      expect(problem.type).toBe(PROBLEM('rate-limited'));
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get('ratelimit-policy')).toBe('"failed-auth-10-in-1min"; q=10; w=60');
      // No key at all counts the same; the writer's key is not affected.
      expect((await guarded.fetch('/v1/policies', { headers: { authorization: '' } })).status).toBe(429);
      const valid = await guarded.fetch('/v1/policies', { headers: { authorization: `Bearer ${WRITER_KEY}` } });
      expect(valid.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

it('verifyWebhook names the check that failed', () => {
  const receipt = { body: Buffer.from('{}'), headers: { 'webhook-id': 'x', 'webhook-timestamp': '1', 'webhook-signature': 'v1,abc' } };
  expect(() => verifyWebhook(receipt.body, receipt.headers, NEW)).toThrow(WebhookVerificationError);
  expect(() => verifyWebhook(receipt.body, receipt.headers, NEW)).toThrow(
    expect.objectContaining({ reason: 'timestamp-out-of-tolerance' }),
  );
});
