// The one Retry-After reader the client and the webhook dispatcher share (packages/api/src/retry-after.ts).
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../src/retry-after.ts';

const now = Date.parse('2026-11-02T09:30:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds and the HTTP-date forms that state GMT (IMF-fixdate, RFC 850)', () => {
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 02 Nov 2026 09:30:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Monday, 02-Nov-26 09:31:00 GMT', now)).toBe(60_000);
  });

  it('refuses what is not an HTTP date, or one Date.parse would read in local time', () => {
    for (const value of ['1 Nov 2026', 'Nov 02 2026 09:31:00', 'Foo, 02 Nov 2026 09:31:00 GMT', 'Mon Nov  2 09:31:00 2026', '-3', '2.5']) {
      expect(parseRetryAfter(value, now), value).toBeNull();
    }
  });
});
