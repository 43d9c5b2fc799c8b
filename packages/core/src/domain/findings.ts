// The finding life cycle: which status changes are allowed, and what a create or a full
// replacement turns a finding into. Pure functions; the store persists their results.
import type { components } from '../../../../generated/schema.d.ts';
import type { DomainError } from './errors.ts';

type Finding = components['schemas']['Finding'];
type FindingCreate = components['schemas']['FindingCreate'];
type FindingUpdate = components['schemas']['FindingUpdate'];
export type FindingStatus = components['schemas']['FindingStatus'];

const TRANSITIONS: Record<FindingStatus, readonly FindingStatus[]> = {
  open: ['in_progress', 'resolved', 'suppressed'],
  in_progress: ['open', 'resolved', 'suppressed'],
  resolved: ['open'],
  suppressed: ['open'],
};

/** Keeping the current status is not a transition and is always allowed. */
export function canTransition(from: FindingStatus, to: FindingStatus): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}

/** Statuses that make the referenced policy non-compliant. */
export const ACTIVE_STATUSES: readonly FindingStatus[] = ['open', 'in_progress'];

export function newFinding(id: string, input: FindingCreate, now: string): Finding | DomainError {
  const firstSeen = input.first_seen_at ?? now;
  const lastSeen = input.last_seen_at ?? now;
  if (Date.parse(lastSeen) < Date.parse(firstSeen)) {
    return { kind: 'validation', pointer: '/body/last_seen_at', message: 'must not be earlier than first_seen_at' };
  }
  return {
    id,
    title: input.title,
    description: input.description ?? '',
    severity: input.severity,
    status: 'open',
    resolution: null,
    device_id: input.device_id,
    policy_id: input.policy_id ?? null,
    first_seen_at: firstSeen,
    last_seen_at: lastSeen,
    resolved_at: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The finding after a full replacement. Entering `resolved` stamps `resolved_at`; staying
 * resolved keeps it; any other status clears it (reopening also clears the resolution).
 */
export function updatedFinding(current: Finding, update: FindingUpdate, now: string): Finding | DomainError {
  if (!canTransition(current.status, update.status)) {
    return {
      kind: 'invalid-transition',
      detail: `A finding in status '${current.status}' cannot move to '${update.status}'.`,
    };
  }
  const closed = update.status === 'resolved' || update.status === 'suppressed';
  return {
    ...current,
    title: update.title,
    description: update.description ?? '',
    severity: update.severity,
    status: update.status,
    resolution: closed && update.resolution ? { reason: update.resolution.reason, comment: update.resolution.comment ?? '' } : null,
    policy_id: update.policy_id ?? null,
    resolved_at: update.status === 'resolved' ? (current.status === 'resolved' ? current.resolved_at : now) : null,
    updated_at: now,
  };
}

/**
 * A finding links only to a policy that exists: the refusal when `finding` names one that does not
 * (`policyExists` answers for its `policy_id`). A link once made stays valid, as deleting a policy
 * unlinks the findings it leaves.
 */
export function policyLinkRefusal(finding: Finding | null, policyExists: boolean): DomainError | undefined {
  if (!finding?.policy_id || policyExists) return undefined;
  return { kind: 'validation', pointer: '/body/policy_id', message: `no policy has the id ${finding.policy_id}` };
}
