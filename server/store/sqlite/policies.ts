// Policies: rows and the derived compliance status.
import type { DatabaseSync } from 'node:sqlite';
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';
import type { PolicyRecord } from '../../../packages/core/src/domain/policies.ts';
import { SELECT_POLICY as SELECT } from '../policy-sql.ts';
import type { PolicyFilters } from '../store.ts';
import { arrayStatement, json, jsonOrNull, selectPage, statement, type Values } from './statements.ts';

type Policy = components['schemas']['Policy'];
type Severity = components['schemas']['Severity'];

/** A row of SELECT, in its column order. */
function toPolicy(row: Values): Policy {
  const [id, name, description, severity, enabled, frameworks, rule, non_compliant, version, created_at, updated_at] = row;
  return {
    id: id as string,
    name: name as string,
    description: description as string,
    severity: severity as Severity,
    enabled: enabled === 1,
    frameworks: json(frameworks),
    rule: jsonOrNull(rule),
    compliance_status: non_compliant === 1 ? 'non_compliant' : 'compliant',
    version: version as number,
    created_at: created_at as string,
    updated_at: updated_at as string,
  };
}

export function listPolicies(db: DatabaseSync, filters: PolicyFilters, after: CursorPosition | undefined, limit: number): Policy[] {
  const where: [string, string | number][] = [];
  if (filters.enabled !== undefined) where.push(['p.enabled = ?', filters.enabled ? 1 : 0]);
  if (filters.severity !== undefined) where.push(['p.severity = ?', filters.severity]);
  return selectPage(db, { select: SELECT, alias: 'p', where, after, limit }).map(toPolicy);
}

export function getPolicy(db: DatabaseSync, id: string): Policy | undefined {
  const row = arrayStatement(db, `${SELECT} WHERE p.id = ?`).get(id) as Values | undefined;
  return row && toPolicy(row);
}

function fields(policy: PolicyRecord) {
  const { name, description, severity, enabled, frameworks, rule, version, updated_at } = policy;
  return [
    name,
    description,
    severity,
    enabled ? 1 : 0,
    JSON.stringify(frameworks),
    rule ? JSON.stringify(rule) : null,
    version,
    updated_at,
  ] as const;
}

export function insertPolicy(db: DatabaseSync, policy: PolicyRecord): Policy {
  statement(
    db,
    `INSERT INTO policies (name, description, severity, enabled, frameworks, rule, version, updated_at, created_at, id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(...fields(policy), policy.created_at, policy.id);
  return getPolicy(db, policy.id)!;
}

export function replacePolicy(db: DatabaseSync, policy: PolicyRecord): Policy | undefined {
  const result = statement(
    db,
    `UPDATE policies SET name = ?, description = ?, severity = ?, enabled = ?, frameworks = ?, rule = ?, version = ?, updated_at = ?
     WHERE id = ?`,
  ).run(...fields(policy), policy.id);
  return result.changes === 0 ? undefined : getPolicy(db, policy.id);
}

export function deletePolicy(db: DatabaseSync, id: string): boolean {
  return statement(db, 'DELETE FROM policies WHERE id = ?').run(id).changes > 0;
}
