// What an attempt's outcome does to its delivery and its webhook, once for every store: the
// delivery's next state, the webhook's `last_delivery`, and the rule that disables a webhook
// whose endpoint is gone or keeps failing. The store applies the result in SQL.
import type { ClaimedDelivery, DeliveryState, DisabledReason, RecordTransaction } from '../store/store.ts';

/** Why an attempt got no usable answer: `refused` never reached the endpoint (its URL is not allowed). */
export type FailureCause = 'http' | 'timeout' | 'connection' | 'refused';

/** What one attempt came to, as the dispatcher judged it. */
export type AttemptOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; status: number | null; cause: FailureCause; error: string; dueAt: number }
  | { kind: 'exhausted'; status: number | null; cause: FailureCause; error: string };

export interface Attempt {
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome;
  /** Epoch ms when the attempt ended. */
  at: number;
}

export interface RecordedAttempt {
  /** Set when the webhook was disabled by this attempt. */
  disabled: DisabledReason | null;
  /**
   * True when the lease had run out and another dispatcher had claimed the delivery again: the
   * outcome was not recorded (that dispatcher's attempt will be), and the receiver got it twice.
   */
  stale?: boolean;
}

export function stateAfter(outcome: AttemptOutcome): DeliveryState {
  return outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'gone' ? 'gone' : outcome.kind === 'retry' ? 'pending' : 'failed';
}

/**
 * Records attempts in webhook order (several instances recording at once then lock webhook rows
 * in one order and cannot deadlock; one webhook's attempts keep their order), inside `tx`.
 */
export async function recordAttempts(tx: RecordTransaction, attempts: readonly Attempt[]): Promise<RecordedAttempt[]> {
  const webhookOf = (index: number) => attempts[index]!.delivery.webhookId;
  const order = attempts.map((_, index) => index).sort((a, b) => webhookOf(a).localeCompare(webhookOf(b)) || a - b);
  const recorded: RecordedAttempt[] = [];
  for (const index of order) recorded[index] = await recordAttempt(tx, attempts[index]!);
  return recorded;
}

async function recordAttempt(tx: RecordTransaction, { delivery, outcome, at }: Attempt): Promise<RecordedAttempt> {
  const firstAttemptAt = delivery.firstAttemptAt ?? at;
  const state = stateAfter(outcome);
  const applied = await tx.update({
    id: delivery.id,
    leasedUntil: delivery.leasedUntil,
    state,
    firstAttemptAt,
    lastStatus: outcome.status,
    lastError: outcome.kind === 'retry' || outcome.kind === 'exhausted' ? outcome.error : null,
    dueAt: outcome.kind === 'retry' ? outcome.dueAt : at,
    finishedAt: state === 'pending' ? null : at,
  });
  if (!applied) return { disabled: null, stale: true };
  const attemptedAt = new Date(at).toISOString();
  await tx.setLastDelivery(delivery.webhookId, { attempted_at: attemptedAt, status_code: outcome.status, succeeded: outcome.kind === 'delivered' });

  // "Recent deliveries keep failing": nothing reached the receiver during the whole retry run of
  // the delivery that just ran out, so the endpoint has been failing for about three days.
  let disabled: DisabledReason | null = null;
  if (outcome.kind === 'gone') disabled = 'endpoint_gone';
  else if (outcome.kind === 'exhausted' && !(await tx.deliveredSince(delivery.webhookId, firstAttemptAt))) disabled = 'failing';
  if (disabled && !(await tx.disable(delivery.webhookId, disabled, attemptedAt))) disabled = null;
  return { disabled };
}
