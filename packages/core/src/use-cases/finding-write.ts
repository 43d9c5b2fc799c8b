// The one write path of findings: a create, replacement or delete, with the compliance of the
// policies it touches read before and after, and the webhook events it causes queued in the same
// transaction.
import type { components } from '../../../../generated/schema.d.ts';
import type { DomainError } from '../domain/errors.ts';
import { type ComplianceFlip, eventsForFindingChange } from '../domain/events.ts';
import { policyLinkRefusal } from '../domain/findings.ts';
import type { Repository } from '../port.ts';
import { publishIn } from './recipients.ts';

type Finding = components['schemas']['Finding'];
type ComplianceStatus = components['schemas']['ComplianceStatus'];

async function complianceOf(tx: Repository, policyId: string): Promise<ComplianceStatus> {
  return (await tx.policies.get(policyId))?.compliance_status ?? 'compliant';
}

/**
 * Applies a create (`before` null), replacement, or delete (`after` null) within the transaction
 * `tx` and queues the events it causes. Returns the refusal (and changes nothing) when `after`
 * links to a policy that does not exist.
 */
export async function writeFindingIn(
  tx: Repository,
  before: Finding | null,
  after: Finding | null,
  now: string,
): Promise<DomainError | undefined> {
  const linked = after?.policy_id ? (await tx.policies.get(after.policy_id)) !== undefined : false;
  const refusal = policyLinkRefusal(after, linked);
  if (refusal) return refusal;
  const touched = [...new Set([before?.policy_id, after?.policy_id])].filter((id): id is string => typeof id === 'string');
  const previous: ComplianceStatus[] = [];
  for (const id of touched) previous.push(await complianceOf(tx, id));
  if (after === null) await tx.findings.delete(before!.id);
  else await tx.findings.upsert(after);
  const compliance: ComplianceFlip[] = [];
  for (const [index, policy_id] of touched.entries())
    compliance.push({ policy_id, before: previous[index]!, after: await complianceOf(tx, policy_id) });
  // Queued at the wall clock's now, so due at once whatever time the change itself carries.
  for (const event of eventsForFindingChange({ before, after, compliance, at: now })) await publishIn(tx, event, new Date());
  return undefined;
}

/** writeFindingIn in a transaction of its own (a savepoint of the caller's, if any). */
export const writeFinding = (repo: Repository, before: Finding | null, after: Finding | null, now: string) =>
  repo.transaction((tx) => writeFindingIn(tx, before, after, now));
