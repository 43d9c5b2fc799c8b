// The one write path of findings, for both stores: a create, replacement or delete, judged with
// the compliance of the policies it touches before and after, and the webhook events it causes
// queued in the same transaction. Each store supplies the rows' SQL (FindingRows).
import type { components } from '../../generated/schema.d.ts';
import type { WebhookEvent } from '../../lib/events.ts';
import { type ComplianceFlip, eventsForFindingChange } from '../domain/events.ts';

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
 * it causes. Returns 'unknown-policy' (and changes nothing) when `after` links to a policy that
 * does not exist. Run inside a transaction, so the events and compliance are judged against the
 * state the change replaces.
 */
export async function writeFinding(
  rows: FindingRows,
  before: Finding | null,
  after: Finding | null,
  now: string,
): Promise<'ok' | 'unknown-policy'> {
  if (after?.policy_id && after.policy_id !== before?.policy_id && !(await rows.policyExists(after.policy_id))) return 'unknown-policy';
  const touched = [...new Set([before?.policy_id, after?.policy_id])].filter((id): id is string => typeof id === 'string');
  const previous: ComplianceStatus[] = [];
  for (const id of touched) previous.push(await rows.complianceOf(id));
  if (after === null) await rows.delete(before!.id);
  else await rows.upsert(after);
  const compliance: ComplianceFlip[] = [];
  for (const [index, policy_id] of touched.entries())
    compliance.push({ policy_id, before: previous[index]!, after: await rows.complianceOf(policy_id) });
  for (const event of eventsForFindingChange({ before, after, compliance, at: now })) await rows.enqueue(event);
  return 'ok';
}
