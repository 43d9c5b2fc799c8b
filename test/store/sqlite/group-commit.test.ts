// Group commit on the SQLite store (server/store/sqlite/gate.ts): transactions started in one turn
// of the event loop share a COMMIT, yet each stays atomic on its own, none is reported before its
// group is durable, and nothing outside a transaction ever reads a group that may still roll back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPolicy } from '../../../packages/core/src/domain/policies.ts';
import { openSqliteStore, sqliteConnection } from '../../../server/store/sqlite/store.ts';
import type { Store } from '../../../server/store/store.ts';

const AT = '2026-11-01T00:00:00.000Z';
const policy = (index: number) => newPolicy(`pol_${String(index).padStart(26, '0')}`, { name: `p${index}`, severity: 'high' }, AT);

const dir = mkdtempSync(join(tmpdir(), 'secmon-group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let store: Store;
let path: string;
let databases = 0;
beforeEach(() => {
  path = join(dir, `${databases++}.db`);
  store = openSqliteStore(path);
});
afterEach(() => store.close());

const insertIn = (index: number) => store.transaction(async (tx) => tx.policies.insert(policy(index)));

describe('SQLite group commit', () => {
  it('transactions of one turn commit together; a failing one undoes only its own changes', async () => {
    const db = sqliteConnection(store)!;
    // Another connection sees only what is committed: the first insert is not, while the third runs.
    const observer = new DatabaseSync(path, { readOnly: true });
    let seenByOthers: unknown;
    const first = insertIn(1);
    const failing = store.transaction(async (tx) => {
      await tx.policies.insert(policy(2));
      throw new Error('refused');
    });
    const third = store.transaction(async (tx) => {
      seenByOthers = observer.prepare('SELECT count(*) AS n FROM policies').get()!.n;
      return tx.policies.insert(policy(3));
    });
    const outcomes = await Promise.allSettled([first, failing, third]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(seenByOthers).toBe(0);
    expect(observer.prepare('SELECT count(*) AS n FROM policies').get()!.n).toBe(2);
    observer.close();
    expect((await store.policies.list({}, undefined, 10)).map((found) => found.name).sort()).toEqual(['p1', 'p3']);
    expect(db.isTransaction).toBe(false);
  });

  it('a transaction is reported only once its group is committed, and a read commits the open group first', async () => {
    const db = sqliteConnection(store)!;
    let settled = false;
    const pending = insertIn(1).then(() => (settled = true));
    await Promise.resolve();
    await Promise.resolve();
    // Its statements ran, the COMMIT waits for the loop to turn: not reported yet.
    expect(db.isTransaction).toBe(true);
    expect(settled).toBe(false);
    // A read outside any transaction does not run inside the open group.
    expect(await store.policies.get(policy(1).id)).toMatchObject({ name: 'p1' });
    expect(db.isTransaction).toBe(false);
    await pending;
    expect(settled).toBe(true);
  });

  it('a COMMIT that fails fails every transaction of its group, and none of them is stored', async () => {
    const db = sqliteConnection(store)!;
    // A foreign key checked at COMMIT: the second transaction's finding names no policy.
    const dangling = store.transaction(async () => {
      db.exec('PRAGMA defer_foreign_keys = ON');
      db.exec(`INSERT INTO findings (id, title, description, severity, status, device_id, policy_id, first_seen_at, last_seen_at, created_at, updated_at)
        VALUES ('fnd_x', 't', '', 'low', 'open', 'dev_x', 'pol_missing', '${AT}', '${AT}', '${AT}', '${AT}')`);
    });
    const outcomes = await Promise.allSettled([insertIn(1), dangling, insertIn(3)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await store.policies.list({}, undefined, 10)).toEqual([]);
    expect(db.isTransaction).toBe(false);
    // The connection goes on: the next transaction commits.
    await insertIn(4);
    expect((await store.policies.list({}, undefined, 10)).map((found) => found.name)).toEqual(['p4']);
  });
});
