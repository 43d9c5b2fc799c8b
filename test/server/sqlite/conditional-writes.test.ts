// If-Match is atomic with the write: twenty writers holding one ETag, racing on separate
// connections (worker threads, as separate processes would) and through HTTP: exactly one wins,
// every other one gets 412, and the version moved by one.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { newPolicy } from '../../../packages/core/src/domain/policies.ts';
import { digests } from '../../../server/platform.ts';
import { openDatabase } from '../../../server/store/sqlite/database.ts';
import { getPolicy, insertPolicy } from '../../../server/store/sqlite/policies.ts';
import { startTestServer, type TestServer } from '../helpers.ts';

const RACERS = 20;
const dir = mkdtempSync(join(tmpdir(), 'secmon-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const tally = (outcomes: string[]) => {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
};

describe('conditional writes', () => {
  it(`store: ${RACERS} connections with one ETag, released at once: one write, the rest precondition-failed`, async () => {
    const path = join(dir, 'race.db');
    const db = openDatabase(path);
    const policy = insertPolicy(db, newPolicy('pol_race', { name: 'Original', severity: 'low' }, new Date().toISOString()));
    const gate = new Int32Array(new SharedArrayBuffer(8));
    const workers = Array.from(
      { length: RACERS },
      (_, racer) =>
        new Worker(new URL('./conditional-race-worker.ts', import.meta.url), {
          workerData: { path, id: policy.id, etag: digests.etagOf(policy), gate, racer, racers: RACERS },
        }),
    );
    try {
      const outcomes = workers.map(async (worker) => {
        const messages: string[] = [];
        worker.on('message', (message: string) => messages.push(message));
        await once(worker, 'exit');
        return messages.at(-1)!;
      });
      await Promise.all(workers.map((worker) => once(worker, 'message')));
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      expect(tally(await Promise.all(outcomes))).toEqual({ written: 1, 'precondition-failed': RACERS - 1 });
      expect(getPolicy(db, policy.id)!.version).toBe(2);
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
      db.close();
    }
  }, 30_000);

  it(`HTTP: ${RACERS} concurrent PUTs with one If-Match: one 200, the rest 412`, async () => {
    t = await startTestServer();
    const created = await t.fetch('/v1/policies', { method: 'POST', json: { name: 'Original', severity: 'low' } });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const etag = created.headers.get('etag')!;
    const statuses = await Promise.all(
      Array.from({ length: RACERS }, async (_, racer) => {
        const response = await t!.fetch(`/v1/policies/${id}`, {
          method: 'PUT',
          headers: { 'If-Match': etag },
          json: { name: `Racer ${racer}`, severity: 'high' },
        });
        await response.arrayBuffer();
        return String(response.status);
      }),
    );
    expect(tally(statuses)).toEqual({ 200: 1, 412: RACERS - 1 });
    expect((await (await t.fetch(`/v1/policies/${id}`)).json()).version).toBe(2);
  });
});
