// Quota arithmetic per key within a window (`RateLimit`, IETF draft 8: `r` requests remain, the
// window resets in `t` seconds): each request the kit sends on a key uses one, so within one
// window `r` falls by at least one per answer (more when another client shares the key) and
// never exceeds the policy's `q`. Answers under another policy (failed authentication) are not
// the key's and are skipped.
import type { Difference } from './state.ts';

interface Reading {
  policy: string;
  q?: number;
  r: number;
  t: number;
  at: number;
}

const RULE = 'rate-limits.2';

function parse(policy: string | null, limit: string | null, at: number): Reading | undefined {
  const name = /^\s*"([^"]*)"/.exec(policy ?? '')?.[1] ?? /^\s*([^;\s]+)/.exec(policy ?? '')?.[1];
  const r = /(?:^|;)\s*r=(\d+)/.exec(limit ?? '')?.[1];
  const t = /(?:^|;)\s*t=(\d+)/.exec(limit ?? '')?.[1];
  const q = /(?:^|;)\s*q=(\d+)/.exec(policy ?? '')?.[1];
  if (name === undefined || r === undefined || t === undefined) return undefined;
  return { policy: name, r: Number(r), t: Number(t), at, ...(q === undefined ? {} : { q: Number(q) }) };
}

/** Tracks one key's readings; `observe` judges each answer on that key in the order they were sent. */
export function quotaTracker() {
  let last: Reading | undefined;
  return {
    observe(policyHeader: string | null, limitHeader: string | null, answeredAt: number, status: number): Difference[] {
      const now = parse(policyHeader, limitHeader, answeredAt);
      if (!now || status === 401 || status === 429 || now.policy === 'unlimited') return [];
      const out: Difference[] = [];
      if (now.q !== undefined && now.r > now.q) out.push({ rule: RULE, message: `RateLimit r=${now.r} is over the policy's q=${now.q}` });
      const previous = last;
      last = now;
      // Same policy, and the earlier window cannot have reset since (a second of slack for rounding).
      if (!previous || previous.policy !== now.policy || now.at - previous.at >= (previous.t - 1) * 1000 || now.t > previous.t) return out;
      if (now.r > previous.r - 1)
        out.push({
          rule: RULE,
          message: `RateLimit r went from ${previous.r} to ${now.r} within one window (t=${previous.t} then t=${now.t}): each request uses one`,
        });
      return out;
    },
  };
}
