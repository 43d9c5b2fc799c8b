// Findings on PostgreSQL: rows, and the one write path that queues compliance events with the change.
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../domain/cursor.ts';
import { eventsForFindingChange, type ComplianceFlip } from '../../domain/events.ts';
import type { FindingFilters } from '../store.ts';
import { complianceOf, policyExists } from './policies.ts';
import { selectPage, type Db } from './queries.ts';

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

/**
 * Applies a create (`before` null), replacement, or delete (`after` null) and queues the events
 * it causes through `enqueue`. Run inside a transaction, so the events and compliance are judged
 * against the state the change replaces.
 */
export async function writeFinding(
  db: Db,
  before: Finding | null,
  after: Finding | null,
  now: string,
  enqueue: (event: ReturnType<typeof eventsForFindingChange>[number]) => Promise<unknown>,
): Promise<'ok' | 'unknown-policy'> {
  if (after?.policy_id && after.policy_id !== before?.policy_id && !(await policyExists(db, after.policy_id))) return 'unknown-policy';
  const touched = [...new Set([before?.policy_id, after?.policy_id])].filter((id): id is string => typeof id === 'string');
  const previous = await Promise.all(touched.map((id) => complianceOf(db, id)));
  if (after === null) await db.query('DELETE FROM findings WHERE id = $1', [before!.id]);
  else await upsert(db, after);
  const compliance: ComplianceFlip[] = [];
  for (const [index, policy_id] of touched.entries()) compliance.push({ policy_id, before: previous[index]!, after: await complianceOf(db, policy_id) });
  for (const event of eventsForFindingChange({ before, after, compliance, at: now })) await enqueue(event);
  return 'ok';
}

async function upsert(db: Db, finding: Finding): Promise<void> {
  await db.query(
    `INSERT INTO findings (${COLUMNS.join(', ')})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
       severity = excluded.severity, status = excluded.status, resolution = excluded.resolution,
       policy_id = excluded.policy_id, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at`,
    COLUMNS.map((column) => (column === 'resolution' ? (finding.resolution ? JSON.stringify(finding.resolution) : null) : finding[column])),
  );
}
