// The retry schedule as plain functions: delays, jitter bounds, Retry-After, scaling, the end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JITTER,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  RETRY_DELAYS_MS,
  retryDelayMs,
} from '../../server/webhooks/schedule.ts';

const HOUR = 3_600_000;
const middle = () => 0.5; // no jitter

describe('retryDelayMs', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: about three days, ten attempts', () => {
    const delays = Array.from({ length: 9 }, (_, index) => retryDelayMs(index + 1, { scale: 1, random: middle }));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR]);
    const total = delays.reduce((sum, delay) => sum! + delay!, 0)!;
    expect(total / (24 * HOUR)).toBeGreaterThan(3);
    expect(total / (24 * HOUR)).toBeLessThan(3.2);
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it('is null once the last attempt has failed', () => {
    expect(retryDelayMs(MAX_ATTEMPTS - 1, { scale: 1, random: middle })).toBe(24 * HOUR);
    expect(retryDelayMs(MAX_ATTEMPTS, { scale: 1, random: middle })).toBeNull();
  });

  it('stays within ±20 % jitter and uses the whole range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const base = RETRY_DELAYS_MS[attempt - 1]!;
        const delay = retryDelayMs(attempt, { scale: 1, random: () => r })!;
        return delay >= Math.floor(base * (1 - JITTER)) && delay <= Math.ceil(base * (1 + JITTER));
      }),
    );
    expect(retryDelayMs(1, { scale: 1, random: () => 0 })).toBe(4_000);
    expect(retryDelayMs(1, { scale: 1, random: () => 0.999999 })).toBe(6_000);
  });

  it('honours a longer Retry-After up to one hour, never a shorter one', () => {
    expect(retryDelayMs(1, { scale: 1, random: middle, retryAfterMs: 60_000 })).toBe(60_000);
    expect(retryDelayMs(1, { scale: 1, random: middle, retryAfterMs: 1_000 })).toBe(5_000);
    expect(retryDelayMs(1, { scale: 1, random: middle, retryAfterMs: 10 * HOUR })).toBe(MAX_RETRY_AFTER_MS);
    expect(retryDelayMs(5, { scale: 1, random: middle, retryAfterMs: 10 * HOUR })).toBe(5 * HOUR);
  });

  it('scales every delay, Retry-After included', () => {
    expect(retryDelayMs(2, { scale: 0.001, random: middle })).toBe(300);
    expect(retryDelayMs(1, { scale: 0.001, random: middle, retryAfterMs: 120_000 })).toBe(120);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-02T09:30:00Z');
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 02 Nov 2026 09:31:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Mon, 02 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot use', () => {
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', 'Mon, 99 Foo 2026'])
      expect(parseRetryAfter(value, now), String(value)).toBeNull();
  });
});
