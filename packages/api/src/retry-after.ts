// `Retry-After` (RFC 9110 §10.2.3), read one way by the client (waiting out a 429) and by the
// webhook dispatcher (a receiver asking to be retried later).

/** Milliseconds from `now` that a `Retry-After` value asks for, or null when absent or unusable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value == null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse accepts far more than HTTP dates (it reads '-3' as a year, '1 Nov' as local time):
  // take only the forms that state GMT, IMF-fixdate and RFC 850, which open with a day name and
  // a comma. asctime is left out because Date.parse would read it in the local time zone.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*, /.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
