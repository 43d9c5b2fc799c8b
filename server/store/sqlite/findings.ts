// Findings on SQLite: rows only (the core's write path decides what a change means).
import type { DatabaseSync } from 'node:sqlite';
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';
import type { FindingFilters } from '../store.ts';
import { arrayStatement, jsonOrNull, selectPage, statement, type Values } from './statements.ts';

type Finding = components['schemas']['Finding'];
type FindingStatus = components['schemas']['FindingStatus'];
type Severity = components['schemas']['Severity'];

const SELECT = `SELECT f.id, f.title, f.description, f.severity, f.status, f.resolution, f.device_id, f.policy_id,
  f.first_seen_at, f.last_seen_at, f.resolved_at, f.created_at, f.updated_at FROM findings f`;

/** A row of SELECT, in its column order. */
function toFinding(row: Values): Finding {
  const [
    id,
    title,
    description,
    severity,
    status,
    resolution,
    device_id,
    policy_id,
    first_seen_at,
    last_seen_at,
    resolved_at,
    created_at,
    updated_at,
  ] = row;
  return {
    id: id as string,
    title: title as string,
    description: description as string,
    severity: severity as Severity,
    status: status as FindingStatus,
    resolution: jsonOrNull(resolution),
    device_id: device_id as string,
    policy_id: policy_id as string | null,
    first_seen_at: first_seen_at as string,
    last_seen_at: last_seen_at as string,
    resolved_at: resolved_at as string | null,
    created_at: created_at as string,
    updated_at: updated_at as string,
  };
}

const FILTER_COLUMNS = ['status', 'severity', 'device_id', 'policy_id'] as const;
type FilterColumn = (typeof FILTER_COLUMNS)[number];

/**
 * The filters an index of migration 2 seeks by: a device's or a policy's findings are few next
 * to the table, so either leads (with status when given, the pairs users combine); without them,
 * status and severity. The other filters are tested on the rows that index yields.
 */
export function seekColumns(filters: FindingFilters): FilterColumn[] {
  const given = FILTER_COLUMNS.filter((column) => filters[column] !== undefined);
  const lead = given.find((column) => column === 'device_id') ?? given.find((column) => column === 'policy_id');
  return lead
    ? given.filter((column) => column === lead || column === 'status')
    : given.filter((column) => column === 'status' || column === 'severity');
}

export function listFindings(db: DatabaseSync, filters: FindingFilters, after: CursorPosition | undefined, limit: number): Finding[] {
  const seek = seekColumns(filters);
  const where: [string, string][] = [];
  for (const column of FILTER_COLUMNS) {
    const value = filters[column];
    // Unary + keeps SQLite from choosing another index for a filter that is only tested.
    if (value !== undefined) where.push([`${seek.includes(column) ? '' : '+'}f.${column} = ?`, value]);
  }
  return selectPage(db, { select: SELECT, alias: 'f', where, after, limit }).map(toFinding);
}

export function getFinding(db: DatabaseSync, id: string): Finding | undefined {
  const row = arrayStatement(db, `${SELECT} WHERE f.id = ?`).get(id) as Values | undefined;
  return row && toFinding(row);
}

export function deleteFinding(db: DatabaseSync, id: string): boolean {
  return statement(db, 'DELETE FROM findings WHERE id = ?').run(id).changes > 0;
}

export function upsertFinding(db: DatabaseSync, finding: Finding): void {
  statement(
    db,
    `INSERT INTO findings (id, title, description, severity, status, resolution, device_id, policy_id,
       first_seen_at, last_seen_at, resolved_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
       severity = excluded.severity, status = excluded.status, resolution = excluded.resolution,
       policy_id = excluded.policy_id, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at`,
  ).run(
    finding.id,
    finding.title,
    finding.description,
    finding.severity,
    finding.status,
    finding.resolution ? JSON.stringify(finding.resolution) : null,
    finding.device_id,
    finding.policy_id,
    finding.first_seen_at,
    finding.last_seen_at,
    finding.resolved_at,
    finding.created_at,
    finding.updated_at,
  );
}
