// Crash safety: the server process is killed with SIGKILL while deliveries are pending and in
// flight; after a restart on the same database every event reaches the receiver at least once.

import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEvent } from '../../../packages/api/src/events.ts';
import { startReceiver } from '../../../scripts/receiver.ts';
import { spawnServer } from '../../../scripts/server-process.ts';
import { sleep, waitUntil } from '../../../scripts/wait.ts';
import { DEVICE_ID } from '../../server/helpers.ts';
import { closeAfter } from '../fixture.ts';

const KEY = 'crash-test-key-7c1d9e';
const EVENTS = 60;

const dir = mkdtempSync(join(tmpdir(), 'secmon-crash-'));
const envFor = (name: string) => ({
  SECMON_DB: join(dir, `${name}.db`),
  SECMON_API_KEYS: `${KEY}:read+write`,
  SECMON_RATE_LIMIT: '0',
  SECMON_RETRY_SCALE: '0.001',
  // Few slots and a slow receiver keep most deliveries pending and some in flight at the kill.
  SECMON_DELIVERY_CONCURRENCY: '4',
  SECMON_DELIVERY_PER_WEBHOOK: '4',
});

const open = closeAfter('each');
const started = async (env: Record<string, string>) => open(await spawnServer(env), (server) => server.kill());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const call = (base: string, path: string, body: unknown) =>
  fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('crash safety', () => {
  it('SIGKILL with deliveries pending and in flight loses nothing; in-flight ones are sent again', async () => {
    const env = envFor('sigkill');
    const receiver = open(await startReceiver({ status: 200, delayMs: 150 }));
    let server = await started(env);
    const webhook = await call(server.url, '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['finding.created'] });
    expect(webhook.status).toBe(201);

    const created = new Set<string>();
    await Promise.all(
      Array.from({ length: EVENTS }, async (_, index) => {
        const response = await call(server.url, '/v1/findings', { title: `Finding ${index}`, severity: 'low', device_id: DEVICE_ID });
        expect(response.status).toBe(201);
        created.add(((await response.json()) as { id: string }).id);
      }),
    );
    // Kill while the receiver holds some requests unanswered (in flight) and most are still queued.
    await receiver.waitFor(6);
    await server.kill('SIGKILL');
    const beforeKill = receiver.receipts.length;
    const deliveryIdsBeforeKill = new Set(receiver.receipts.map((receipt) => receipt.headers['x-service-delivery'] as string));
    expect(beforeKill).toBeLessThan(EVENTS);

    server = await started(env);
    const seen = () =>
      new Set(receiver.receipts.map((receipt) => (parseEvent(receipt.body) as { data: { finding_id: string } }).data.finding_id));
    await waitUntil(() => seen().size >= EVENTS, 20_000);
    await sleep(300);

    const received = seen();
    const lost = [...created].filter((id) => !received.has(id));
    const afterRestart = receiver.receipts.slice(beforeKill);
    const resent = afterRestart.filter((receipt) => deliveryIdsBeforeKill.has(receipt.headers['x-service-delivery'] as string));
    // The crash-test figures, for whoever reports on delivery reliability.
    console.log(
      `crash test: ${EVENTS} events committed, ${beforeKill} requests before SIGKILL, ${afterRestart.length} after restart, ` +
        `${received.size} distinct events received, ${lost.length} lost, ${resent.length} resent after the crash, ` +
        `${receiver.receipts.length - received.size} duplicates in total`,
    );
    expect(lost).toEqual([]);
    expect(received.size).toBe(EVENTS);
    // The requests that were in flight when the process died were not acknowledged: sent again.
    expect(resent.length).toBeGreaterThan(0);
    expect(server.lines.some((line) => line.includes('resending webhook deliveries a previous process had in flight'))).toBe(true);
  });

  it('SIGTERM lets attempts in flight finish, leaves the rest pending, and the restart sends them once', async () => {
    const env = envFor('sigterm');
    const receiver = open(await startReceiver({ status: 200, delayMs: 150 }));
    let server = await started(env);
    expect((await call(server.url, '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['finding.created'] })).status).toBe(201);
    for (let index = 0; index < 30; index++) {
      expect((await call(server.url, '/v1/findings', { title: `Finding ${index}`, severity: 'low', device_id: DEVICE_ID })).status).toBe(
        201,
      );
    }
    await receiver.waitFor(6);
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
    const beforeRestart = receiver.receipts.length;
    expect(beforeRestart).toBeLessThan(30);

    server = await started(env);
    await receiver.waitFor(30, 20_000);
    await sleep(300);
    const ids = receiver.receipts.map((receipt) => receipt.headers['x-service-delivery']);
    console.log(
      `graceful stop: 30 events, ${beforeRestart} delivered before SIGTERM, ${receiver.receipts.length} requests in all, ${ids.length - new Set(ids).size} duplicates`,
    );
    expect(new Set(ids).size).toBe(30);
    expect(ids).toHaveLength(30);
    expect(server.lines.some((line) => line.includes('resending webhook deliveries'))).toBe(false);
  });
});
