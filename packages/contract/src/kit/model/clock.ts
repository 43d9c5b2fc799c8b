// Timestamps are "RFC 3339 in UTC with `Z`": a schema checks the form, the model checks that the
// time is really UTC, by the kit's own clock. A time the target stamps during a request must fall
// between sending it and the answer, give or take the five minutes the document already allows a
// webhook-timestamp against a receiver's clock (clocks differ; a time-zone shift is hours).
import type { Difference } from './state.ts';

export const CLOCK_TOLERANCE_MS = 5 * 60 * 1000;

/** What is wrong with `value` as the time of something that happened between `from` and `to` (kit clock, ms). */
export function stampDifference(field: string, value: unknown, from: number, to: number): Difference | undefined {
  if (typeof value !== 'string') return { rule: 'limits.3', message: `${field} is ${JSON.stringify(value)}, not a timestamp` };
  const at = Date.parse(value);
  if (!value.endsWith('Z') || Number.isNaN(at)) return { rule: 'limits.3', message: `${field} ${value} is not RFC 3339 in UTC with Z` };
  if (at < from - CLOCK_TOLERANCE_MS || at > to + CLOCK_TOLERANCE_MS) {
    const off = Math.round((at < from ? at - from : at - to) / 1000);
    return {
      rule: 'limits.3',
      message: `${field} ${value} is ${off} s from the kit's clock when the request was served (${new Date(from).toISOString()}): not UTC`,
    };
  }
  return undefined;
}
