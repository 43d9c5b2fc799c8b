// The one write path of findings, for both stores: a create, replacement or delete, with the
// compliance of the policies it touches read before and after, and the webhook events it causes
// queued in the same transaction. The domain decides (server/domain/); each store supplies the
// rows' SQL (FindingRows).
import type { components } from '../../generated/schema.d.ts';
import type { WebhookEvent } from '../../packages/api/src/events.ts';
import type { DomainError } from '../domain/errors.ts';
import { type ComplianceFlip, eventsForFindingChange } from '../domain/events.ts';
import { policyLinkRefusal } from '../domain/findings.ts';

type Finding = components['schemas']['Finding'];
type ComplianceStatus = components['schemas']['ComplianceStatus'];

/** The statements a finding write needs, inside the caller's transaction. */
export interface FindingRows {
  policyExists(id: string): Promise<boolean>;
  complianceOf(policyId: string): Promise<ComplianceStatus>;
  upsert(finding: Finding): Promise<void>;
  delete(id: string): Promise<void>;
  enqueue(event: WebhookEvent): Promise<unknown>;
}

/**
 * Applies a create (`before` null), replacement, or delete (`after` null) and queues the events
 * it causes. Returns the domain's refusal (and changes nothing) when `after` links to a policy that
 * does not exist. Run inside a transaction, so the events and compliance are judged against the
 * state the change replaces.
 */
export async function writeFinding(
  rows: FindingRows,
  before: Finding | null,
  after: Finding | null,
  now: string,
): Promise<DomainError | undefined> {
  const refusal = policyLinkRefusal(after, after?.policy_id ? await rows.policyExists(after.policy_id) : false);
  if (refusal) return refusal;
  const touched = [...new Set([before?.policy_id, after?.policy_id])].filter((id): id is string => typeof id === 'string');
  const previous: ComplianceStatus[] = [];
  for (const id of touched) previous.push(await rows.complianceOf(id));
  if (after === null) await rows.delete(before!.id);
  else await rows.upsert(after);
  const compliance: ComplianceFlip[] = [];
  for (const [index, policy_id] of touched.entries())
    compliance.push({ policy_id, before: previous[index]!, after: await rows.complianceOf(policy_id) });
  for (const event of eventsForFindingChange({ before, after, compliance, at: now })) await rows.enqueue(event);
  return undefined;
}
