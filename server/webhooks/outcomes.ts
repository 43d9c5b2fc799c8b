// What an attempt's outcome does to its delivery and its webhook, once for every store: the
// delivery's next state, the webhook's `last_delivery`, and the rule that disables a webhook
// whose endpoint is gone or keeps failing (decided by the core's disableAfter). The store applies
// the result in SQL.
import { disableAfter } from '../../packages/core/src/index.ts';
import type { ClaimedDelivery, DeliveryState, DeliveryUpdate, DisabledReason, RecordTransaction } from '../store/store.ts';

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
 * Records a batch of attempts inside `tx`: every delivery's row in one update, then per webhook
 * one `last_delivery` (its last attempt in the batch that was recorded) and the disable rule.
 * Webhooks are visited in id order (several instances recording at once then lock webhook rows
 * in one order and cannot deadlock); one webhook's attempts keep their order.
 */
export async function recordAttempts(tx: RecordTransaction, attempts: readonly Attempt[]): Promise<RecordedAttempt[]> {
  const webhookOf = (index: number) => attempts[index]!.delivery.webhookId;
  const order = attempts.map((_, index) => index).sort((a, b) => webhookOf(a).localeCompare(webhookOf(b)) || a - b);
  const applied = await tx.update(order.map((index) => deliveryUpdate(attempts[index]!)));
  const recorded: RecordedAttempt[] = attempts.map(() => ({ disabled: null, stale: true }));
  // Per webhook, the indexes of its recorded attempts, in order.
  const byWebhook = new Map<string, number[]>();
  order.forEach((index, position) => {
    if (!applied[position]) return;
    recorded[index] = { disabled: null };
    const indexes = byWebhook.get(webhookOf(index));
    if (indexes) indexes.push(index);
    else byWebhook.set(webhookOf(index), [index]);
  });
  for (const [webhookId, indexes] of byWebhook) {
    const last = attempts[indexes.at(-1)!]!;
    await tx.setLastDelivery(webhookId, {
      attempted_at: new Date(last.at).toISOString(),
      status_code: last.outcome.status,
      succeeded: last.outcome.kind === 'delivered',
    });
    for (const index of indexes) {
      const { delivery, outcome, at } = attempts[index]!;
      const attempt = { webhookId, kind: outcome.kind, firstAttemptAt: delivery.firstAttemptAt ?? at, at };
      const disabled = await disableAfter(tx, attempt);
      if (disabled) recorded[index] = { disabled };
    }
  }
  return recorded;
}

function deliveryUpdate({ delivery, outcome, at }: Attempt): DeliveryUpdate {
  const state = stateAfter(outcome);
  return {
    id: delivery.id,
    leasedUntil: delivery.leasedUntil,
    state,
    firstAttemptAt: delivery.firstAttemptAt ?? at,
    lastStatus: outcome.status,
    lastError: outcome.kind === 'retry' || outcome.kind === 'exhausted' ? outcome.error : null,
    dueAt: outcome.kind === 'retry' ? outcome.dueAt : at,
    finishedAt: state === 'pending' ? null : at,
  };
}
