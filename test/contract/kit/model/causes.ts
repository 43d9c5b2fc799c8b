// What a change causes beyond its own answer: a policy's derived compliance_status (non_compliant
// while an open or in-progress finding of the kit's references it) and the events the document
// says each change emits, addressed to the kit's webhooks that are enabled and subscribed then.
import type { Json } from './facts.ts';
import { OPEN_STATES } from './representation.ts';
import { type Known, knownOf, type ModelState, type PredictedEvent } from './state.ts';

/** The compliance_status a kit policy must have now. */
export function complianceOf(state: ModelState, policyId: string): 'compliant' | 'non_compliant' {
  const open = knownOf(state, 'findings').some(
    (finding) => finding.expected.policy_id === policyId && OPEN_STATES.has(String(finding.expected.status)),
  );
  return open ? 'non_compliant' : 'compliant';
}

/** The kit webhooks that must get an event of `type` now (all of them, or only `target` for a targeted one). */
export function recipientsOf(state: ModelState, type: string, target?: string): Set<string> {
  const hooks = knownOf(state, 'webhooks').filter(
    (hook) => hook.expected.enabled === true && (hook.expected.events as string[]).includes(type) && (!target || hook.id === target),
  );
  return new Set(hooks.map((hook) => hook.id));
}

export function emit(state: ModelState, type: string, data: Json, target?: string, ownData?: true): void {
  state.events.push({
    type,
    data,
    recipients: recipientsOf(state, type, target),
    ...(target ? { targeted: target } : {}),
    ...(ownData ? { ownData } : {}),
  });
}

/**
 * After a finding was created, replaced or deleted (`before` and `after` its expected fields, either
 * missing), re-derives the compliance of the policies it referenced and emits what changed.
 */
export function findingChanged(state: ModelState, id: string, before: Json | undefined, after: Json | undefined): void {
  if (!before && after) {
    emit(state, 'finding.created', {
      finding_id: id,
      severity: after.severity,
      title: after.title,
      device_id: after.device_id,
      policy_id: after.policy_id ?? null,
    });
  }
  if (after?.status === 'resolved' && before?.status !== 'resolved')
    emit(state, 'finding.resolved', { finding_id: id, resolution_reason: (after.resolution as Json | null)?.reason });
  const policies = new Set([before?.policy_id, after?.policy_id].filter((p): p is string => typeof p === 'string'));
  for (const policyId of policies) {
    const policy = state.known.get(policyId);
    if (!policy) continue;
    const previous = policy.expected.compliance_status;
    const current = complianceOf(state, policyId);
    if (previous === current) continue;
    setCompliance(policy, current);
    // A deleted finding is no cause the event can name.
    emit(state, 'compliance.changed', {
      policy_id: policyId,
      previous_status: previous,
      current_status: current,
      finding_id: after ? id : null,
    });
  }
}

/** A derived field changed without an answer showing it: the ETag the model knew is stale. */
function setCompliance(policy: Known, status: string): void {
  policy.expected = { ...policy.expected, compliance_status: status };
  if (policy.etag) policy.oldTags.push(policy.etag);
  delete policy.etag;
}

/** Events the model predicted for one kit webhook. */
export function eventsFor(state: ModelState, webhookId: string): PredictedEvent[] {
  return state.events.filter((event) => event.recipients.has(webhookId));
}
