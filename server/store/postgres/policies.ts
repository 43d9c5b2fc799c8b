// Policies on PostgreSQL: rows and the derived compliance status.
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../domain/cursor.ts';
import type { PolicyRecord } from '../../domain/policies.ts';
import { nonCompliant, SELECT_POLICY as SELECT } from '../policy-sql.ts';
import type { PolicyFilters } from '../store.ts';
import { type Db, selectPage } from './queries.ts';

type Policy = components['schemas']['Policy'];
type ComplianceStatus = components['schemas']['ComplianceStatus'];

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

export async function policyExists(db: Db, id: string): Promise<boolean> {
  return ((await db.query('SELECT 1 FROM policies WHERE id = $1', [id])).rowCount ?? 0) > 0;
}

export async function complianceOf(db: Db, id: string): Promise<ComplianceStatus> {
  const [row] = (await db.query<{ non_compliant: boolean }>(`SELECT ${nonCompliant('$1')} AS non_compliant`, [id])).rows;
  return row?.non_compliant ? 'non_compliant' : 'compliant';
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

/** Unlinks the findings that reference the policy and deletes it; false when there is none. Run inside a transaction. */
export async function deletePolicy(db: Db, id: string, now: string): Promise<boolean> {
  await db.query('UPDATE findings SET policy_id = NULL, updated_at = $1 WHERE policy_id = $2', [now, id]);
  return ((await db.query('DELETE FROM policies WHERE id = $1', [id])).rowCount ?? 0) > 0;
}
