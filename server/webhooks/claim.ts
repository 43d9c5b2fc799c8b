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
   * database (this one included), so several instances keep each endpoint's limit. The map fills
   * as the plan chooses: the claim adds a webhook's count, exact, once it holds its lock.
   */
  plan(leased: ReadonlyMap<string, number>): SlotPlan;
}

/**
 * Leases up to `limit` due deliveries that the plan chooses, reading due retries first (a retry
 * keeps its schedule; a backlog of new deliveries has no time promised), each oldest due first. A
 * lease moves the due time to its expiry; one that runs out (its process died mid-attempt) makes
 * the delivery due again, so it is sent at least once. Deliveries of deleted or disabled
 * webhooks are cancelled on the way. Only the webhooks about to be leased for are locked, so
 * instances claiming for different webhooks do not wait for each other.
 */
export function claimDue(outbox: OutboxStore, { now, limit, leaseMs, plan: planFor }: ClaimRequest): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return Promise.resolve([]);
  return outbox.claim(async (tx) => {
    const leased = new Map<string, number>();
    const plan = planFor(leased);
    const exclude = new Set(plan.blocked);
    const locked = new Set<string>();
    /** Webhooks another claim held when this one tried them: left out until it waits for them. */
    const busy = new Set<string>();
    // A webhook's count, taken under its lock, is exact until the claim ends.
    const lock = async (ids: readonly string[], wait: boolean) => {
      const counts = await tx.lockWebhooks(ids, now, { wait });
      for (const id of ids) {
        const count = counts.get(id);
        if (count === undefined) {
          busy.add(id);
          exclude.add(id);
        } else {
          busy.delete(id);
          exclude.delete(id);
          locked.add(id);
          leased.set(id, count);
        }
      }
    };
    const leasedUntil = now + leaseMs;
    const claimed: ClaimedDelivery[] = [];
    // A window of a few rows per free slot; a webhook whose due rows the plan passed over (or
    // another claim holds) is left out of the next window, so one webhook's backlog cannot hide
    // another's delivery.
    for (;;) {
      const window = (limit - claimed.length) * 4;
      const rows = await tx.due({ now, exclude, retriesOnly: plan.retriesOnly, limit: window });
      const enabled: DueDelivery[] = [];
      const cancelled: { id: string; reason: string }[] = [];
      for (const row of rows) {
        if (row.webhook === 'enabled') enabled.push(row);
        else cancelled.push({ id: row.id, reason: `webhook ${row.webhook}` });
      }
      if (cancelled.length > 0) await tx.cancel(cancelled, now);
      const excludedBefore = exclude.size;
      // First without waiting: a claim takes what no other claim is busy with before it waits for anything.
      const unlocked = [...new Set(enabled.map((row) => row.webhookId))].filter((id) => !locked.has(id));
      if (unlocked.length > 0) await lock(unlocked, false);
      const candidates = enabled.filter((row) => locked.has(row.webhookId));
      const choice = plan.choose(candidates);
      const chosen = choice.slice(0, limit - claimed.length);
      let lost = 0;
      if (chosen.length > 0) {
        const taken = new Set(
          await tx.lease(
            chosen.map((row) => row.id),
            leasedUntil,
            now,
          ),
        );
        for (const { webhook: _, ...delivery } of chosen) if (taken.has(delivery.id)) claimed.push({ ...delivery, leasedUntil });
        // Taken by another claim since they were read: no longer due, so the next window looks past them.
        lost = chosen.length - taken.size;
      }
      for (const candidate of candidates) if (!choice.includes(candidate)) exclude.add(candidate.webhookId);
      if (claimed.length >= limit) return claimed;
      if (rows.length < window || (exclude.size === excludedBefore && lost === 0)) {
        // Nothing taken, and other claims hold webhooks with due rows: wait for those (their claims
        // take milliseconds), then read their rows afresh, with their leases counted exactly. A claim
        // that took something leaves them: its attempts' ends wake its dispatcher to look again.
        if (busy.size === 0 || claimed.length > 0) return claimed;
        const waitedFor = [...busy];
        await lock(waitedFor, true);
        if (waitedFor.every((id) => busy.has(id))) return claimed;
      }
    }
  });
}
