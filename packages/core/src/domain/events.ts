// Which webhook events a change to a finding produces. The store calls this inside the
// transaction that makes the change and writes the result to the outbox in that transaction.
import type { components } from '../../../../generated/schema.d.ts';

type Finding = components['schemas']['Finding'];
type ComplianceStatus = components['schemas']['ComplianceStatus'];
type FindingCreatedEvent = components['schemas']['FindingCreatedEvent'];
type FindingResolvedEvent = components['schemas']['FindingResolvedEvent'];
type ComplianceChangedEvent = components['schemas']['ComplianceChangedEvent'];

export type FindingChangeEvent = FindingCreatedEvent | FindingResolvedEvent | ComplianceChangedEvent;

export interface ComplianceFlip {
  policy_id: string;
  before: ComplianceStatus;
  after: ComplianceStatus;
}

export interface FindingChange {
  /** null on create. */
  before: Finding | null;
  /** null on delete. */
  after: Finding | null;
  /** Compliance of every policy the change touched, before and after it. */
  compliance: readonly ComplianceFlip[];
  at: string;
}

/** The fields both finding events carry. */
function summary(finding: Finding) {
  return {
    finding_id: finding.id,
    severity: finding.severity,
    title: finding.title,
    device_id: finding.device_id,
    policy_id: finding.policy_id,
  };
}

export function eventsForFindingChange({ before, after, compliance, at }: FindingChange): FindingChangeEvent[] {
  const events: FindingChangeEvent[] = [];
  if (before === null && after !== null) {
    events.push({
      event: 'finding.created',
      timestamp: at,
      data: summary(after),
    });
  }
  if (after?.status === 'resolved' && before?.status !== 'resolved' && after.resolution && after.resolved_at) {
    events.push({
      event: 'finding.resolved',
      timestamp: at,
      data: {
        ...summary(after),
        resolution_reason: after.resolution.reason as FindingResolvedEvent['data']['resolution_reason'],
        resolved_at: after.resolved_at,
      },
    });
  }
  for (const flip of compliance) {
    if (flip.before === flip.after) continue;
    events.push({
      event: 'compliance.changed',
      timestamp: at,
      data: {
        policy_id: flip.policy_id,
        previous_status: flip.before,
        current_status: flip.after,
        finding_id: after?.id ?? null,
        changed_at: at,
      },
    });
  }
  return events;
}
