// Attempts and which of them must be retried. Delivery is at least once, so a receiver may get one
// attempt twice at once: the same X-Service-Delivery, the same webhook-timestamp and the same bytes
// within a moment. Such copies are one attempt; a retry is a later attempt (it carries its own
// time, seconds later).
import type { Delivery } from '../../receiver.ts';
import { deliveryId } from './rule-support.ts';
import { timestampOf } from './signatures.ts';

/** How close copies of one attempt arrive; the first retry's documented wait is seconds. */
export const COPY_WINDOW_MS = 1000;

/** Whether `later` is a copy of the attempt `first` (within `windowMs`; 0 counts nothing as a copy). */
export function isCopy(first: Delivery, later: Delivery, windowMs: number): boolean {
  return (
    windowMs > 0 &&
    deliveryId(first) === deliveryId(later) &&
    timestampOf(first) === timestampOf(later) &&
    later.receivedAt - first.receivedAt < windowMs &&
    first.raw.equals(later.raw)
  );
}

/** The first delivery of each attempt, copies of an attempt dropped. */
export function attempts(deliveries: Delivery[], windowMs: number): Delivery[] {
  const out: Delivery[] = [];
  for (const delivery of deliveries) if (!out.some((attempt) => isCopy(attempt, delivery, windowMs))) out.push(delivery);
  return out;
}

/**
 * The client errors a receiver may answer, "anything else" the document says is retried (410 alone
 * disables): the run answers one of them, picked by its seed, so runs with other seeds cover the rest.
 */
export const RETRIED_CLIENT_ERRORS = [400, 401, 403, 404, 405, 409, 413, 415, 422, 429] as const;

export const clientErrorFor = (seed: number) => RETRIED_CLIENT_ERRORS[Math.abs(seed) % RETRIED_CLIENT_ERRORS.length]!;
