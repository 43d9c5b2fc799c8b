// Findings on PostgreSQL: rows only (the core's write path decides what a change means).
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';
import type { FindingFilters } from '../store.ts';
import { type Db, selectPage } from './queries.ts';

type Finding = components['schemas']['Finding'];

const COLUMNS = [
  'id',
  'title',
  'description',
  'severity',
  'status',
  'resolution',
  'device_id',
  'policy_id',
  'first_seen_at',
  'last_seen_at',
  'resolved_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Finding)[];
const SELECT = `SELECT ${COLUMNS.map((column) => `f.${column}`).join(', ')} FROM findings f`;

/** Equality filters; PostgreSQL's planner picks the index of migration 1 that leads with them. */
const FILTER_COLUMNS = ['status', 'severity', 'device_id', 'policy_id'] as const;

export async function listFindings(db: Db, filters: FindingFilters, after: CursorPosition | undefined, limit: number): Promise<Finding[]> {
  const where: [string, unknown][] = [];
  for (const column of FILTER_COLUMNS) if (filters[column] !== undefined) where.push([`f.${column} = $?`, filters[column]]);
  return selectPage<Finding>(db, { select: SELECT, alias: 'f', where, after, limit });
}

export async function getFinding(db: Db, id: string): Promise<Finding | undefined> {
  return (await db.query<Finding>(`${SELECT} WHERE f.id = $1`, [id])).rows[0];
}

export async function deleteFinding(db: Db, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM findings WHERE id = $1', [id])).rowCount ?? 0) > 0;
}

export async function upsertFinding(db: Db, finding: Finding): Promise<void> {
  await db.query(
    `INSERT INTO findings (${COLUMNS.join(', ')})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
       severity = excluded.severity, status = excluded.status, resolution = excluded.resolution,
       policy_id = excluded.policy_id, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at`,
    COLUMNS.map((column) => (column === 'resolution' ? (finding.resolution ? JSON.stringify(finding.resolution) : null) : finding[column])),
  );
}
