// A database file made before the outbox tables were a numbered migration (they were created at
// every start, outside schema_migrations) opens, keeps its queued deliveries, and ends with the
// same schema as a new database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../server/store/sqlite/database.ts';
import { openSqliteStore, sqliteConnection } from '../../../server/store/sqlite/store.ts';
import type { Store } from '../../../server/store/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'secmon-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const schemaOf = (store: Store) =>
  sqliteConnection(store)!
    .prepare("SELECT type, name, tbl_name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all();

describe('SQLite migrations', () => {
  it('a database made by the old schema opens with its pending deliveries and the schema of a new one', async () => {
    const path = join(dir, 'old.db');
    const old = new DatabaseSync(path);
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    MIGRATIONS.slice(0, 3).forEach((sql, index) => {
      old.exec(sql);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(index + 1, '2026-11-01T00:00:00Z');
    });
    // Every start created the outbox tables with this very DDL, without recording a version.
    old.exec(MIGRATIONS[3]!);
    old.exec(`INSERT INTO webhooks (id, url, events, secret, description, enabled, created_at, updated_at)
      VALUES ('whk_a', 'https://receiver.example.com/a', '["finding.created"]', NULL, '', 1, '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
      INSERT INTO webhook_events VALUES ('evt_1', 'finding.created', '{}', '2026-11-01T00:00:00Z');
      INSERT INTO webhook_deliveries (id, event_id, webhook_id, state, attempts, due_at, created_at) VALUES ('dlv_1', 'evt_1', 'whk_a', 'pending', 0, 1, 1);`);
    old.close();

    const migrated = openSqliteStore(path);
    const fresh = openSqliteStore(join(dir, 'new.db'));
    try {
      expect(await migrated.outbox.listDeliveries('whk_a')).toMatchObject([{ id: 'dlv_1', state: 'pending' }]);
      const versions = sqliteConnection(migrated)!.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
      expect(versions).toEqual(MIGRATIONS.map((_, index) => ({ version: index + 1 })));
      expect(schemaOf(migrated)).toEqual(schemaOf(fresh));
    } finally {
      await Promise.all([migrated.close(), fresh.close()]);
    }
    // And again: nothing left to apply.
    const reopened = openSqliteStore(path);
    expect(await reopened.outbox.countDeliveries()).toMatchObject({ pending: 1 });
    await reopened.close();
  });
});
