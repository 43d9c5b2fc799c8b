// When a failed delivery is tried again (the document's *Delivery and retries*).
export { parseRetryAfter } from '../../packages/api/src/retry-after.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Wait before each retry, counted from the attempt before it: about three days in all. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** The first try plus one per retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** ±20 %: receivers that fail together do not all get retried in the same instant. */
export const JITTER = 0.2;

/** A receiver's Retry-After can stretch a wait up to this, never shorten it. */
export const MAX_RETRY_AFTER_MS = HOUR;

export interface RetryOptions {
  /** Multiplies every delay, Retry-After included (0.001 runs the three days in under five minutes). */
  scale: number;
  /** The receiver's Retry-After in ms, if it sent a usable one. */
  retryAfterMs?: number | null | undefined;
  /** Uniform in [0, 1); injectable so tests pin the jitter. */
  random?: () => number;
}

/**
 * Milliseconds to wait after the `attemptsMade`-th attempt failed, or null when that was the last
 * attempt the schedule allows.
 */
export function retryDelayMs(attemptsMade: number, { scale, retryAfterMs, random = Math.random }: RetryOptions): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = base * (1 + JITTER * (2 * random() - 1));
  const wanted = retryAfterMs == null ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.round(Math.max(jittered, wanted) * scale);
}
