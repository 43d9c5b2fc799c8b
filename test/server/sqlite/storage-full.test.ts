// A full SQLite database (PRAGMA max_page_count stands in for a full disk, nothing to mount):
// writes answer 503 storage-full with Retry-After, the log names the cause (not the ROLLBACK that
// followed it), /readyz says not ready until a write succeeds again, and nothing acknowledged is lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteConnection } from '../../../server/store/sqlite/store.ts';
import { DEVICE_ID, PROBLEM, readProblem, startTestServer, type TestServer } from '../helpers.ts';

let folder: string;
let t: TestServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'secmon-full-'));
  t = await startTestServer({ database: join(folder, 'secmon.db') });
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

const createFinding = (index: number) =>
  t.fetch('/v1/findings', {
    method: 'POST',
    json: { title: `Finding ${index} ${'x'.repeat(200)}`, severity: 'low', device_id: DEVICE_ID },
  });
const readiness = async () => {
  const response = await fetch(`${t.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { status: string; reason?: string } };
};

describe('a full SQLite database', () => {
  it('answers 503 storage-full, names the cause, is not ready until a write succeeds, and loses nothing acknowledged', async () => {
    const db = sqliteConnection(t.server.app.store)!;
    expect(
      (await t.fetch('/v1/webhooks', { method: 'POST', json: { url: 'http://127.0.0.1:9/hook', events: ['finding.created'] } })).status,
    ).toBe(201);
    const acknowledged: string[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await createFinding(index);
      expect(response.status).toBe(201);
      acknowledged.push((await response.json()).id);
    }

    const pages = db.prepare('PRAGMA page_count').get()!.page_count as number;
    db.exec(`PRAGMA max_page_count = ${pages}`);
    let full: Response | undefined;
    for (let index = 5; index < 500 && !full; index++) {
      const response = await createFinding(index);
      if (response.status === 201) acknowledged.push((await response.json()).id);
      else full = response;
    }
    expect(full?.status).toBe(503);
    expect(full!.headers.get('retry-after')).toBe('60');
    const problem = await readProblem(full!);
    expect(problem.type).toBe(PROBLEM('storage-full'));

    const cause = t.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'database full: database or disk is full');
    expect(cause).toMatchObject({
      cause: 'database or disk is full',
      store: 'sqlite',
      // The write of the create that found the disk full: the finding's row or its event's.
      operation: expect.stringMatching(/^(findings\.upsert|outbox\.enqueue)$/),
      err: { message: 'database or disk is full' },
    });
    expect(t.logs.join('\n')).not.toMatch(/cannot rollback/);

    // Reads go on; the instance says it is not ready while writes fail.
    expect((await t.fetch(`/v1/findings/${acknowledged[0]}`)).status).toBe(200);
    expect(await readiness()).toEqual({ status: 503, body: { status: 'unavailable', reason: 'database or disk is full' } });

    // Space comes back: the probe write succeeds, and so do creates.
    db.exec('PRAGMA max_page_count = 1073741823');
    expect(await readiness()).toEqual({ status: 200, body: { status: 'ready' } });
    const after = await createFinding(1000);
    expect(after.status).toBe(201);
    acknowledged.push((await after.json()).id);

    for (const id of acknowledged) expect((await t.fetch(`/v1/findings/${id}`)).status).toBe(200);
    const queued = (await t.server.app.store.outbox.listEvents()).filter((event) => event.event === 'finding.created');
    expect(new Set(queued.map((event) => (event.data as { finding_id: string }).finding_id))).toEqual(new Set(acknowledged));
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
  });
});
