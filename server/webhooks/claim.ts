// A claim, once for every store: which due deliveries this dispatcher leases now. The endpoint
// scheduler's plan says which webhooks may send and picks among the due rows; the store reads
// windows of due rows and writes cancellations and leases in SQL, under its own concurrency
// control (ClaimTransaction).
import type { ClaimedDelivery, DueDelivery, OutboxStore } from '../store/store.ts';
import type { SlotPlan } from './endpoints.ts';

export interface ClaimRequest {
  now: number;
  limit: number;
  leaseMs: number;
  /**
   * The slot plan, given per webhook the deliveries leased at `now` by every process on the
   * database (this one included), read inside the claim so several instances keep each
   * endpoint's limit. Empty where this process is the only one claiming.
   */
  plan(leased: ReadonlyMap<string, number>): SlotPlan;
}

/**
 * Leases up to `limit` due deliveries that the plan chooses, reading them oldest due first. A
 * lease moves the due time to its expiry; one that runs out (its process died mid-attempt) makes
 * the delivery due again, so it is sent at least once. Deliveries of deleted or disabled
 * webhooks are cancelled on the way.
 */
export function claimDue(outbox: OutboxStore, { now, limit, leaseMs, plan: planFor }: ClaimRequest): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return Promise.resolve([]);
  return outbox.claim(async (tx) => {
    const plan = planFor(await tx.leased(now));
    const exclude = new Set(plan.blocked);
    const leasedUntil = now + leaseMs;
    const claimed: ClaimedDelivery[] = [];
    // A window of a few rows per free slot; a webhook whose due rows the plan passed over is left
    // out of the next window, so one webhook's backlog cannot hide another's delivery.
    for (;;) {
      const window = (limit - claimed.length) * 4;
      const rows = await tx.due({ now, exclude, retriesOnly: plan.retriesOnly, limit: window });
      const candidates: DueDelivery[] = [];
      const cancelled: { id: string; reason: string }[] = [];
      for (const row of rows) {
        if (row.webhook === 'enabled') candidates.push(row);
        else cancelled.push({ id: row.id, reason: `webhook ${row.webhook}` });
      }
      if (cancelled.length > 0) await tx.cancel(cancelled, now);
      const chosen = plan.choose(candidates).slice(0, limit - claimed.length);
      if (chosen.length > 0) {
        await tx.lease(
          chosen.map((row) => row.id),
          leasedUntil,
        );
        for (const { webhook: _, ...delivery } of chosen) claimed.push({ ...delivery, leasedUntil });
      }
      const passedOver = candidates.filter((candidate) => !chosen.includes(candidate) && !exclude.has(candidate.webhookId));
      for (const candidate of passedOver) exclude.add(candidate.webhookId);
      if (claimed.length >= limit || rows.length < window || passedOver.length === 0) return claimed;
    }
  });
}
