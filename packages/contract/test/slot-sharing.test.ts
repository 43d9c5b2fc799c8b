// How the slot-sharing check counts requests open at once at a receiver, and when it calls the
// healthy webhook's wait a stall.
import { describe, expect, it } from 'vitest';
import { type HoldSeen, healthyStall, mostOpen } from '../src/kit/checks/slot-sharing.ts';

describe('mostOpen', () => {
  it('counts requests whose times overlap', () => {
    expect(
      mostOpen([
        { receivedAt: 0, closedAt: 10 },
        { receivedAt: 5, closedAt: 15 },
        { receivedAt: 6, closedAt: 7 },
      ]),
    ).toBe(3);
  });

  it('counts an end before an arrival at the same millisecond', () => {
    expect(
      mostOpen([
        { receivedAt: 0, closedAt: 10 },
        { receivedAt: 10, closedAt: 20 },
      ]),
    ).toBe(1);
  });

  it('counts a request not yet answered as open until now', () => {
    expect(mostOpen([{ receivedAt: 0 }, { receivedAt: 50, closedAt: 60 }], 100)).toBe(2);
    expect(mostOpen([{ receivedAt: 0, closedAt: 40 }, { receivedAt: 50 }], 100)).toBe(1);
  });
});

describe('healthyStall', () => {
  // Sent at 0, the first delivery 100 ms later, the first request held from 200 ms, judged at 8.2 s.
  const seen = (changes: Partial<HoldSeen>): HoldSeen => ({
    sentAt: 0,
    heldFrom: 200,
    causedUntil: 150,
    healthyArrivals: [100, 300, 500],
    served: false,
    healthyRetried: false,
    judgedAt: 8_200,
    ...changes,
  });

  it('is the quiet time since the last arrival when it reaches 4 s', () => {
    expect(healthyStall(seen({}))).toBe(7_700);
    expect(healthyStall(seen({ healthyArrivals: [100, 4_200] }))).toBe(4_000);
  });

  it('is none while deliveries kept coming, or the quiet time is shorter than 4 s', () => {
    expect(healthyStall(seen({ healthyArrivals: [100, 4_201] }))).toBeUndefined();
    expect(healthyStall(seen({ healthyArrivals: [100, 3_000, 6_000, 8_000] }))).toBeUndefined();
  });

  it('counts the quiet time from the first held request when nothing came after it', () => {
    expect(healthyStall(seen({ healthyArrivals: [], heldFrom: 1_000 }))).toBe(7_200);
  });

  it("needs three times the burst's first delivery latency when that is longer than 4 s", () => {
    // The burst's first delivery 2 s after it was sent: a stall is 6 s of quiet.
    const late = { heldFrom: 2_100 };
    expect(healthyStall(seen({ ...late, healthyArrivals: [2_000, 2_500] }))).toBeUndefined();
    expect(healthyStall(seen({ ...late, healthyArrivals: [2_000, 2_200] }))).toBe(6_000);
    // A held request that came first gives the latency too.
    expect(healthyStall(seen({ heldFrom: 2_000, healthyArrivals: [2_500] }))).toBeUndefined();
    expect(healthyStall(seen({ heldFrom: 2_000, healthyArrivals: [2_500], judgedAt: 8_600 }))).toBe(6_100);
  });

  it('counts the quiet time from when the kit had caused every event, which a wait for its rate limit may delay', () => {
    expect(healthyStall(seen({ causedUntil: 5_000 }))).toBeUndefined();
    expect(healthyStall(seen({ causedUntil: 4_000 }))).toBe(4_200);
  });

  it('is none when the healthy webhook was served, nothing was held, or the service saw it fail', () => {
    expect(healthyStall(seen({ served: true }))).toBeUndefined();
    expect(healthyStall(seen({ heldFrom: undefined }))).toBeUndefined();
    expect(healthyStall(seen({ healthyRetried: true }))).toBeUndefined();
  });
});
