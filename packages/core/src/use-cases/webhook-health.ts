// The rule that disables a webhook: its endpoint is gone (410), or nothing reached the receiver
// during the whole retry run of the delivery that just ran out ("recent deliveries keep failing":
// about three days of failures). The delivery engine records outcomes; the rule is decided here.
import type { components } from '../../../../generated/schema.d.ts';

export type DisabledReason = NonNullable<components['schemas']['Webhook']['disabled_reason']>;

/** The rows the rule reads and writes, inside the transaction recording the outcome. */
export interface WebhookHealthRows {
  /** True when a delivery of the webhook finished delivered at or after `since` (epoch ms). */
  deliveredSince(webhookId: string, since: number): Promise<boolean>;
  /** Whether the webhook is enabled, its row locked until the transaction ends; undefined when it is gone. */
  lockWebhook(webhookId: string): Promise<{ enabled: boolean } | undefined>;
  /** Writes the webhook disabled with the service's reason. */
  disable(webhookId: string, reason: DisabledReason, at: string): Promise<void>;
}

export interface FinishedAttempt {
  webhookId: string;
  /** `gone`: the endpoint answered 410; `exhausted`: the delivery's last retry failed. */
  kind: 'delivered' | 'gone' | 'retry' | 'exhausted';
  /** Epoch ms of the delivery's first attempt (this one's, if it was the first). */
  firstAttemptAt: number;
  /** Epoch ms when the attempt ended. */
  at: number;
}

/** Disables the webhook when the rule says so; the reason, or null when it stays (or already was) disabled. */
export async function disableAfter(rows: WebhookHealthRows, attempt: FinishedAttempt): Promise<DisabledReason | null> {
  let reason: DisabledReason | null = null;
  if (attempt.kind === 'gone') reason = 'endpoint_gone';
  else if (attempt.kind === 'exhausted' && !(await rows.deliveredSince(attempt.webhookId, attempt.firstAttemptAt))) reason = 'failing';
  if (reason === null || !(await rows.lockWebhook(attempt.webhookId))?.enabled) return null;
  await rows.disable(attempt.webhookId, reason, new Date(attempt.at).toISOString());
  return reason;
}
