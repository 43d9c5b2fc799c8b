// How the circuit-breaker check finds the probe a receiver answered, and when a new delivery is early.
import { describe, expect, it } from 'vitest';
import { earlyBy, probeAnsweredAt } from '../src/kit/checks/circuit-breaker.ts';
import type { Delivery } from '../src/kit/receiver.ts';

const request = (id: string, receivedAt: number, status: number, closedAt = receivedAt + 5): Delivery => ({
  path: '/rules/circuit',
  method: 'POST',
  headers: { 'x-service-delivery': id },
  raw: Buffer.from('{}'),
  receivedAt,
  answered: { status },
  closedAt,
});

describe('probeAnsweredAt', () => {
  it('is when the first retry answered 2xx closed', () => {
    const seen = [request('a', 0, 500), request('b', 10, 500), request('a', 5_000, 204, 5_020), request('b', 5_100, 204)];
    expect(probeAnsweredAt(seen)).toBe(5_020);
  });

  it('skips retries that failed, and first attempts that succeeded', () => {
    const seen = [request('a', 0, 500), request('c', 100, 204), request('a', 5_000, 500), request('a', 9_000, 204, 9_010)];
    expect(probeAnsweredAt(seen)).toBe(9_010);
  });

  it('is none when no delivery came twice', () => {
    expect(probeAnsweredAt([request('a', 0, 500), request('b', 10, 204)])).toBeUndefined();
  });
});

describe('earlyBy', () => {
  it('is how long before the probe the new delivery came, when the probe came before the pause ended', () => {
    expect(earlyBy(1_000, 0, 3_000)).toBe(2_000);
    expect(earlyBy(3_000, 0, 3_000)).toBeUndefined();
  });

  it('allows the new delivery from 4 s after the third failure (the 5 s pause less 20 %) without a probe', () => {
    expect(earlyBy(1_100, 100, undefined)).toBe(3_000);
    expect(earlyBy(4_100, 100, undefined)).toBeUndefined();
    expect(earlyBy(4_100, 100, 9_000)).toBeUndefined();
  });

  it('after a failed probe, allows the next new delivery from 8 s after that failure (the doubled 10 s pause less 20 %)', () => {
    expect(earlyBy(2_600, 100, undefined, 10_000)).toBe(5_500);
    expect(earlyBy(8_100, 100, undefined, 10_000)).toBeUndefined();
  });
});
