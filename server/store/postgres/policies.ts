// Policies on PostgreSQL: rows and the derived compliance status.
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';
import type { PolicyRecord } from '../../../packages/core/src/domain/policies.ts';
import { SELECT_POLICY as SELECT } from '../policy-sql.ts';
import type { PolicyFilters } from '../store.ts';
import { type Db, selectPage } from './queries.ts';

type Policy = components['schemas']['Policy'];

interface PolicyRow extends Omit<Policy, 'compliance_status'> {
  non_compliant: boolean;
}

function toPolicy({ non_compliant, ...row }: PolicyRow): Policy {
  const { id, name, description, severity, enabled, frameworks, rule, version, created_at, updated_at } = row;
  return {
    id,
    name,
    description,
    severity,
    enabled,
    frameworks,
    rule,
    compliance_status: non_compliant ? 'non_compliant' : 'compliant',
    version,
    created_at,
    updated_at,
  };
}

export async function listPolicies(db: Db, filters: PolicyFilters, after: CursorPosition | undefined, limit: number): Promise<Policy[]> {
  const where: [string, unknown][] = [];
  if (filters.enabled !== undefined) where.push(['p.enabled = $?', filters.enabled]);
  if (filters.severity !== undefined) where.push(['p.severity = $?', filters.severity]);
  return (await selectPage<PolicyRow>(db, { select: SELECT, alias: 'p', where, after, limit })).map(toPolicy);
}

export async function getPolicy(db: Db, id: string): Promise<Policy | undefined> {
  const [row] = (await db.query<PolicyRow>(`${SELECT} WHERE p.id = $1`, [id])).rows;
  return row && toPolicy(row);
}

function fields(policy: PolicyRecord): unknown[] {
  const { name, description, severity, enabled, frameworks, rule, version, updated_at } = policy;
  return [name, description, severity, enabled, JSON.stringify(frameworks), rule ? JSON.stringify(rule) : null, version, updated_at];
}

export async function insertPolicy(db: Db, policy: PolicyRecord): Promise<Policy> {
  await db.query(
    `INSERT INTO policies (name, description, severity, enabled, frameworks, rule, version, updated_at, created_at, id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [...fields(policy), policy.created_at, policy.id],
  );
  return (await getPolicy(db, policy.id))!;
}

export async function replacePolicy(db: Db, policy: PolicyRecord): Promise<Policy | undefined> {
  const result = await db.query(
    `UPDATE policies SET name = $1, description = $2, severity = $3, enabled = $4, frameworks = $5, rule = $6, version = $7, updated_at = $8
     WHERE id = $9`,
    [...fields(policy), policy.id],
  );
  return result.rowCount === 0 ? undefined : getPolicy(db, policy.id);
}

export async function deletePolicy(db: Db, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM policies WHERE id = $1', [id])).rowCount ?? 0) > 0;
}
