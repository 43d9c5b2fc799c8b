// The SSRF guard: address classes, URL rules per mode, the save-time check (through the API in
// production mode) and the delivery-time check on the address a name resolves to.
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../../scripts/receiver.ts';
import { waitUntil } from '../../scripts/wait.ts';
import { deliveryWorker } from '../../server/webhooks/dispatcher.ts';
import {
  addressRefusal,
  checkWebhookUrl,
  classifyAddress,
  guardedLookup,
  type Resolver,
  systemResolver,
  urlRefusal,
} from '../../server/webhooks/ssrf.ts';
import { PROBLEM, readProblem, startTestServer } from '../server/helpers.ts';
import { closeAfter, startDeliveringServer, subscribe } from './fixture.ts';

const fixed =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'reserved'],
    ['64:ff9b::7f00:1', 'reserved'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('development allows loopback only; production allows neither', () => {
    expect(addressRefusal('127.0.0.1', 'development')).toBeNull();
    expect(addressRefusal('127.0.0.1', 'production')).toMatch(/loopback/);
    expect(addressRefusal('10.0.0.1', 'development')).toMatch(/private/);
    expect(addressRefusal('169.254.169.254', 'development')).toMatch(/metadata/);
    expect(addressRefusal('93.184.216.34', 'production')).toBeNull();
  });
});

describe('urlRefusal', () => {
  it.each([
    ['ftp://example.com/hook', 'development', /http or https/],
    ['http://example.com/hook', 'production', /https in production/],
    ['https://user:pw@example.com/hook', 'production', /credentials/],
    ['https://127.0.0.1/hook', 'production', /loopback/],
    ['https://[::1]:8443/hook', 'production', /loopback/],
    ['https://[fd00:ec2::254]/latest', 'production', /metadata/],
    ['http://169.254.169.254/latest/meta-data', 'development', /metadata/],
    ['not a url', 'development', /valid absolute URL/],
    // Spellings the URL parser normalises to an internal address.
    ['https://0x7f.1/hook', 'production', /127\.0\.0\.1 is a loopback/],
    ['https://2130706433/hook', 'production', /127\.0\.0\.1 is a loopback/],
    ['https://[::ffff:127.0.0.1]/hook', 'production', /loopback/],
    ['https://[::ffff:a9fe:a9fe]/latest', 'development', /metadata/],
  ] as const)('%s in %s is refused', (url, mode, reason) => {
    expect(urlRefusal(url, mode)).toMatch(reason);
  });

  it.each([
    ['http://127.0.0.1:3001/hook', 'development'],
    ['http://localhost:3001/hook', 'development'],
    ['https://hooks.example.com/secmon', 'production'],
    ['https://93.184.216.34/hook', 'production'],
  ] as const)('%s in %s passes', (url, mode) => {
    expect(urlRefusal(url, mode)).toBeNull();
  });
});

describe('checkWebhookUrl (save time)', () => {
  const resolve = fixed({
    'hooks.example.com': ['93.184.216.34'],
    'sneaky.example.com': ['93.184.216.34', '10.0.0.7'],
    localhost: ['127.0.0.1', '::1'],
  });

  it('refuses a name when any address it resolves to is refused', async () => {
    expect(await checkWebhookUrl('https://sneaky.example.com/hook', { mode: 'production', resolve })).toMatch(
      /sneaky\.example\.com resolves to 10\.0\.0\.7 is a private network address/,
    );
    expect(await checkWebhookUrl('https://localhost/hook', { mode: 'production', resolve })).toMatch(/loopback/);
    expect(await checkWebhookUrl('http://localhost/hook', { mode: 'development', resolve })).toBeUndefined();
    expect(await checkWebhookUrl('https://hooks.example.com/hook', { mode: 'production', resolve })).toBeUndefined();
  });

  it('accepts a name that does not resolve yet or resolves too slowly (delivery decides)', async () => {
    expect(await checkWebhookUrl('https://unknown.example.com/hook', { mode: 'production', resolve })).toBeUndefined();
    const never: Resolver = () => new Promise(() => {});
    expect(await checkWebhookUrl('https://slow.example.com/hook', { mode: 'production', resolve: never, timeoutMs: 20 })).toBeUndefined();
  });
});

describe('systemResolver', () => {
  it('answers a name under .invalid itself, without asking DNS (RFC 6761)', async () => {
    // The system resolver's own refusal reads "getaddrinfo ENOTFOUND …"; this one names the RFC.
    for (const name of ['secmon-contract.invalid', 'A.B.INVALID.']) {
      await expect(systemResolver(name)).rejects.toMatchObject({ code: 'ENOTFOUND', message: expect.stringContaining('RFC 6761') });
    }
    // Any other name still goes to the system resolver (/etc/hosts answers for localhost).
    expect((await systemResolver('localhost')).map((entry) => entry.address)).toContain('127.0.0.1');
  });
});

describe('guardedLookup (delivery time)', () => {
  const lookup = (mode: 'development' | 'production', hostname: string, all = false) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      guardedLookup(mode, fixed({ 'rebind.test': ['127.0.0.1'], 'ok.test': ['93.184.216.34', '2606:2800:220:1::1'] }))(
        hostname,
        { all },
        (error: NodeJS.ErrnoException | null, address: unknown) => done({ error, address }),
      ),
    );

  it('fails the connection with an SSRF error for a refused address', async () => {
    const { error } = await lookup('production', 'rebind.test');
    expect(error).toMatchObject({ name: 'SsrfError', code: 'ERR_SSRF_BLOCKED' });
    expect(error!.message).toMatch(/rebind\.test resolves to 127\.0\.0\.1 is a loopback address/);
  });

  it('passes allowed addresses through, one or all', async () => {
    expect(await lookup('development', 'rebind.test')).toEqual({ error: null, address: '127.0.0.1' });
    expect((await lookup('production', 'ok.test', true)).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('passes resolver errors on', async () => {
    expect((await lookup('production', 'missing.test')).error).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('production server', () => {
  const open = closeAfter('each');

  it.each([
    ['http://hooks.example.com/secmon', /https/],
    ['https://127.0.0.1/hook', /loopback/],
    ['https://10.0.0.5/hook', /private/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://[fd00:ec2::254]/latest', /metadata/],
    ['https://100.64.3.4/hook', /carrier-grade NAT/],
    ['https://localhost:8443/hook', /localhost resolves to .*loopback/],
  ])('refuses %s at create and update time with a url-not-allowed problem', async (url, reason) => {
    const t = open(await startTestServer({ mode: 'production' }));
    const created = await t.fetch('/v1/webhooks', { method: 'POST', json: { url, events: ['finding.created'] } });
    expect(created.status).toBe(400);
    const problem = await readProblem(created);
    expect(problem.type).toBe(PROBLEM('url-not-allowed'));
    expect(problem.errors).toEqual([{ pointer: '/body/url', message: expect.stringMatching(reason) }]);

    const ok = await t.fetch('/v1/webhooks', { method: 'POST', json: { url: 'https://93.184.216.34/hook', events: ['finding.created'] } });
    expect(ok.status).toBe(201);
    const { id } = await ok.json();
    const updated = await t.fetch(`/v1/webhooks/${id}`, { method: 'PUT', json: { url, events: ['finding.created'] } });
    expect(updated.status).toBe(400);
    expect((await readProblem(updated)).type).toBe(PROBLEM('url-not-allowed'));
    expect((await (await t.fetch(`/v1/webhooks/${id}`)).json()).url).toBe('https://93.184.216.34/hook');
  });

  it('refuses at delivery time a name that now resolves to loopback, without connecting', async () => {
    const receiver = open(await startReceiver());
    const port = new URL(receiver.url).port;
    // Saved while the name pointed at a public address; by delivery it points at loopback (DNS rebinding).
    const t = open(
      await startDeliveringServer(
        { mode: 'production', delivery: { timeoutMs: 1000, concurrency: 4, perWebhookConcurrency: 2 } },
        {
          checkWebhookUrl: (url) => checkWebhookUrl(url, { mode: 'production', resolve: fixed({ 'receiver.test': ['93.184.216.34'] }) }),
          workers: [deliveryWorker({ resolve: fixed({ 'receiver.test': ['127.0.0.1'], localhost: ['127.0.0.1'] }) })],
        },
      ),
    );
    const id = await subscribe(t, { url: `https://receiver.test:${port}/hook` });
    // Unknown to the save-time resolver (accepted), loopback to the delivery-time one.
    const localId = await subscribe(t, { url: `https://localhost:${port}/hook` });

    const finding = await t.fetch('/v1/findings', {
      method: 'POST',
      json: { title: 'Open port 445', severity: 'high', device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2' },
    });
    expect(finding.status).toBe(201);
    // Both refusals recorded: by then any connection the dispatcher made would have been counted.
    await waitUntil(async () =>
      (await Promise.all([id, localId].map((webhookId) => t.server.app.store.outbox.listDeliveries(webhookId)))).every(
        ([delivery]) => delivery?.lastError != null,
      ),
    );

    expect(receiver.connections()).toBe(0);
    const [delivery] = await t.server.app.store.outbox.listDeliveries(id);
    expect(delivery!.attempts).toBeGreaterThanOrEqual(1);
    expect(delivery!.lastError).toMatch(/refused: receiver\.test resolves to 127\.0\.0\.1 is a loopback address/);
    expect((await (await t.fetch(`/v1/webhooks/${id}`)).json()).last_delivery).toMatchObject({ status_code: null, succeeded: false });
    expect((await t.server.app.store.outbox.listDeliveries(localId))[0]!.lastError).toMatch(
      /refused: localhost resolves to 127\.0\.0\.1 is a loopback address/,
    );
  });
});
