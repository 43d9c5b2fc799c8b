// The SQL both stores read policies with: the same columns, and compliance derived in the query.
import { ACTIVE_STATUSES } from '../../packages/core/src/domain/findings.ts';

const ACTIVE = ACTIVE_STATUSES.map((status) => `'${status}'`).join(', ');

/** True while open or in-progress findings reference the policy; seeks findings_policy_status, however many findings it has. */
export const nonCompliant = (policyId: string) =>
  `EXISTS (SELECT 1 FROM findings f WHERE f.policy_id = ${policyId} AND f.status IN (${ACTIVE}))`;

/** A policy row, its columns in this order (SQLite reads them as arrays). */
export const SELECT_POLICY = `SELECT p.id, p.name, p.description, p.severity, p.enabled, p.frameworks, p.rule, ${nonCompliant('p.id')} AS non_compliant,
  p.version, p.created_at, p.updated_at FROM policies p`;
