// What a create or a full replacement turns a policy into. Pure functions; the store persists
// their results and derives the compliance status from the findings that reference the policy.
import type { components } from '../../../../generated/schema.d.ts';
import type { DomainError } from './errors.ts';

type Policy = components['schemas']['Policy'];
type PolicyWrite = components['schemas']['PolicyWrite'];

/** A policy as stored: every field but its compliance status. */
export type PolicyRecord = Omit<Policy, 'compliance_status'>;

// PUT replaces every writable field, so create and replace share the defaults.
function writable(input: PolicyWrite): Pick<PolicyRecord, 'name' | 'description' | 'severity' | 'enabled' | 'frameworks' | 'rule'> {
  return {
    name: input.name,
    description: input.description ?? '',
    severity: input.severity,
    enabled: input.enabled !== false,
    frameworks: input.frameworks ?? [],
    rule: input.rule ?? null,
  };
}

export function newPolicy(id: string, input: PolicyWrite, now: string): PolicyRecord {
  return { id, ...writable(input), version: 1, created_at: now, updated_at: now };
}

/** The full replacement of `current`: every writable field from `input`, the next version. */
export function replacedPolicy(current: PolicyRecord, input: PolicyWrite, now: string): PolicyRecord {
  return { id: current.id, ...writable(input), version: current.version + 1, created_at: current.created_at, updated_at: now };
}

/**
 * A policy that open or in-progress findings reference (non-compliant) cannot be deleted: they would
 * lose the policy they still fail. Closed findings do not hold it; deleting unlinks them.
 */
export function deletionRefusal(policy: Policy): DomainError | undefined {
  if (policy.compliance_status === 'compliant') return undefined;
  return {
    kind: 'policy-in-use',
    detail: `Open or in-progress findings still reference policy ${policy.id}; resolve or suppress them first.`,
  };
}
