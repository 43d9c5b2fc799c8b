// Query plans of every list the API offers, for every combination of its documented filters,
// first page and cursor page: each must seek an index to its filters and cursor and read the page
// in index order (no table scan, no sort), so its cost does not grow with the table. The filter
// names come from the bundled document, so a new filter is covered (or fails here) at once.
// Speed itself is measured by bench/scale.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';
import { newPolicy } from '../../../packages/core/src/domain/policies.ts';
import { newWebhook, replacedWebhook } from '../../../packages/core/src/domain/webhooks.ts';
import { MIGRATIONS, openDatabase } from '../../../server/store/sqlite/database.ts';
import { listFindings, seekColumns, upsertFinding } from '../../../server/store/sqlite/findings.ts';
import { deletePolicy, getPolicy, insertPolicy, listPolicies } from '../../../server/store/sqlite/policies.ts';
import { deleteWebhook, insertWebhook, listWebhooks, replaceWebhook } from '../../../server/store/sqlite/webhooks.ts';

type Finding = components['schemas']['Finding'];
type Filters = Record<string, string | boolean>;

const document = JSON.parse(readFileSync(new URL('../../../generated/openapi.json', import.meta.url), 'utf8'));

/** The query parameters of a list operation other than its page size and cursor. */
function documentedFilters(path: string): string[] {
  const resolve = (parameter: { $ref?: string; name?: string; in?: string }) =>
    parameter.$ref ? document.components.parameters[parameter.$ref.split('/').pop()!] : parameter;
  return (document.paths[path].get.parameters as object[])
    .map(resolve)
    .filter((parameter) => parameter.in === 'query' && parameter.name !== 'limit' && parameter.name !== 'cursor')
    .map((parameter) => parameter.name as string);
}

const SAMPLES: Filters = {
  status: 'open',
  severity: 'high',
  device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
  policy_id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1',
  enabled: true,
  event: 'finding.created',
};

function combinations(names: string[]): Filters[] {
  return names.reduce<Filters[]>(
    (all, name) => {
      if (!(name in SAMPLES)) throw new Error(`no sample value for the filter ${name}: add one to SAMPLES`);
      return all.concat(all.map((filters) => ({ ...filters, [name]: SAMPLES[name]! })));
    },
    [{}],
  );
}

/** Records the SQL the store prepares, so the plans checked are those of the statements that run. */
function recording(db: DatabaseSync): { prepared: string[]; plan(sql: string): string[] } {
  const prepare = db.prepare.bind(db);
  const prepared: string[] = [];
  db.prepare = (sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  };
  return {
    prepared,
    plan: (sql) =>
      prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail as string),
  };
}

const CURSOR: CursorPosition = { created_at: '2026-01-01T00:00:00.000Z', id: 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1' };

/** The columns the outer loop's index is searched by, from a line like `SEARCH f USING INDEX x (a=? AND b=?)`. */
const searchedColumns = (line: string) => [...(/\((.*)\)$/.exec(line)?.[1] ?? '').matchAll(/(\w+)=\?/g)].map((match) => match[1]);

// Filter sets with an index of their own; the others seek by device_id or policy_id (with status)
// and test the remaining filters on that device's or policy's rows.
const OWN_INDEX = new Set(['', 'status', 'severity', 'device_id', 'policy_id', 'severity,status', 'device_id,status', 'policy_id,status']);

describe('list query plans', () => {
  let db: DatabaseSync;
  let sql: ReturnType<typeof recording>;
  beforeEach(() => {
    db = openDatabase(':memory:');
    sql = recording(db);
  });
  afterEach(() => db.close());

  const lists = [
    { path: '/v1/findings', list: (filters: Filters, after?: CursorPosition) => listFindings(db, filters, after, 20) },
    { path: '/v1/policies', list: (filters: Filters, after?: CursorPosition) => listPolicies(db, filters, after, 20) },
    { path: '/v1/webhooks', list: (filters: Filters, after?: CursorPosition) => listWebhooks(db, filters, after, 20) },
  ];

  for (const { path, list } of lists) {
    it(`${path}: every filter combination, with and without a cursor, seeks an index in page order`, () => {
      const names = documentedFilters(path);
      expect(names.length).toBeGreaterThan(0);
      for (const filters of combinations(names)) {
        for (const after of [undefined, CURSOR]) {
          const label = `${path}?${new URLSearchParams(filters as Record<string, string>)}${after ? ' (cursor)' : ''}`;
          sql.prepared.length = 0;
          list(filters, after);
          expect(sql.prepared, label).toHaveLength(1);
          const plan = sql.plan(sql.prepared[0]!);
          expect(
            plan.filter((line) => line.includes('TEMP B-TREE')),
            label,
          ).toEqual([]);
          const scans = plan.filter((line) => line.startsWith('SCAN '));
          // Only the unfiltered first page may walk the order index from its start: it stops after a page.
          if (Object.keys(filters).length === 0 && !after)
            expect(scans, label).toEqual([expect.stringMatching(/^SCAN \w+ USING INDEX \w+_order$/)]);
          else expect(scans, label).toEqual([]);
          const outer = plan.find((line) => line.startsWith('SEARCH ') || line.startsWith('SCAN '))!;
          if (after) expect(outer, label).toContain('(created_at,id)<(?,?)');
          const searched = searchedColumns(outer).sort().join(',');
          const wanted = Object.keys(filters).sort().join(',');
          if (path !== '/v1/findings' || OWN_INDEX.has(wanted)) expect(searched, label).toBe(wanted);
          else expect(searched, label).toBe(seekColumns(filters).sort().join(','));
        }
      }
    });
  }

  // The core's unlinking reads a policy's findings with the list's policy_id filter, whose plans the tests above check.
  it('a policy read (its compliance) and its delete seek by index', () => {
    const policy = insertPolicy(db, newPolicy('pol_01jbz1a2b3c4d5e6f7g8h9j0k1', { name: 'p', severity: 'high' }, CURSOR.created_at));
    sql.prepared.length = 0;
    getPolicy(db, policy.id);
    deletePolicy(db, policy.id);
    const reads = sql.prepared.filter((text) => /^(SELECT|UPDATE|DELETE)/.test(text));
    expect(reads.length).toBeGreaterThanOrEqual(1);
    for (const text of reads) {
      const plan = sql.plan(text);
      expect(
        plan.filter((line) => (line.startsWith('SCAN ') && line !== 'SCAN CONSTANT ROW') || line.includes('TEMP B-TREE')),
        text,
      ).toEqual([]);
      if (text.includes('FROM findings')) expect(plan.join('\n'), text).toContain('(policy_id=? AND status=?)');
    }
  });
});

const finding = (id: string, created_at: string, status: Finding['status']): Finding => ({
  id,
  title: 't',
  description: '',
  severity: 'high',
  status,
  resolution: status === 'open' ? null : { reason: 'fixed', comment: '' },
  device_id: SAMPLES.device_id as string,
  policy_id: null,
  first_seen_at: created_at,
  last_seen_at: created_at,
  resolved_at: status === 'open' ? null : created_at,
  created_at,
  updated_at: created_at,
});

describe('list pages over the new indexes', () => {
  it('a filtered cursor walk returns every match once, newest first, ties broken by id', () => {
    const db = openDatabase(':memory:');
    // Seven findings on three days, so pages split ties on created_at; one is resolved.
    const rows = Array.from({ length: 7 }, (_, index) =>
      finding(`fnd_01jbz3k7q2w9x8v6t5r4p3n2m${index}`, `2026-01-0${1 + (index % 3)}T00:00:00.000Z`, index === 3 ? 'resolved' : 'open'),
    );
    for (const row of rows) upsertFinding(db, row);
    const seen: string[] = [];
    let after: CursorPosition | undefined;
    for (;;) {
      const page = listFindings(db, { status: 'open', device_id: SAMPLES.device_id as string }, after, 2);
      seen.push(...page.slice(0, 2).map((item) => item.id));
      if (page.length <= 2) break;
      after = page[1]!;
    }
    const expected = rows
      .filter((row) => row.status === 'open')
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
      .map((row) => row.id);
    expect(expected).toHaveLength(6);
    expect(seen).toEqual(expected);
    db.close();
  });

  it('webhook_subscriptions follows inserts, event and enabled changes (also by other writers) and deletes', () => {
    const db = openDatabase(':memory:');
    const at = CURSOR.created_at;
    const a = insertWebhook(
      db,
      newWebhook('whk_01jbz4c8d2e6f0g4h8j2k6m0n4', { url: 'https://a.example', events: ['finding.created', 'scan.completed'] }, at),
    );
    const byEvent = (filters: Filters) => listWebhooks(db, filters, undefined, 20).map((webhook) => webhook.id);
    expect(byEvent({ event: 'scan.completed' })).toEqual([a.id]);
    replaceWebhook(db, replacedWebhook(a, { url: a.url, events: ['device.connected'] }, at));
    expect(byEvent({ event: 'scan.completed' })).toEqual([]);
    expect(byEvent({ event: 'device.connected', enabled: true })).toEqual([a.id]);
    db.prepare('UPDATE webhooks SET enabled = 0 WHERE id = ?').run(a.id);
    expect(byEvent({ event: 'device.connected', enabled: true })).toEqual([]);
    expect(byEvent({ event: 'device.connected', enabled: false })).toEqual([a.id]);
    deleteWebhook(db, a.id);
    expect(db.prepare('SELECT COUNT(*) AS n FROM webhook_subscriptions').get()!.n).toBe(0);
    db.close();
  });

  it('the migration indexes the subscriptions of webhooks stored before it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secmon-plans-'));
    try {
      const path = join(dir, 'old.db');
      const old = new DatabaseSync(path);
      old.exec(MIGRATIONS[0]!);
      old.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
        INSERT INTO schema_migrations VALUES (1, '2026-01-01T00:00:00Z');
        INSERT INTO webhooks VALUES ('whk_01jbz4c8d2e6f0g4h8j2k6m0n4', 'https://a.example', '["scan.completed"]', NULL, '', 1, NULL, NULL,
          '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');`);
      old.close();
      const db = openDatabase(path);
      expect(listWebhooks(db, { event: 'scan.completed', enabled: true }, undefined, 20).map((webhook) => webhook.id)).toEqual([
        'whk_01jbz4c8d2e6f0g4h8j2k6m0n4',
      ]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
