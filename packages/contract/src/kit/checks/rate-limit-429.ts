// The 429 probe: reads the key's quota from RateLimit-Policy and, when it is small enough to use
// up quickly, sends requests until the target answers 429, which must carry Retry-After, the
// RateLimit headers and a problem body. Uses the read key when there is one, so the write key
// keeps its quota for cleanup.
import { defineCheck, PROBE_WAVE } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { type Exchange, parseRateLimit } from '../http.ts';
import type { OperationModel } from '../spec.ts';
import { PROBLEM_BASE } from './shared/problem-table.ts';

const RULES = ['rate-limits.4', 'errors.19', 'header.RetryAfter.1', 'response.TooManyRequests.1'] as const;
type Rule = (typeof RULES)[number];

/** Last of all: it uses up the quota of the key it probes with. */
export const rateLimitCheck = defineCheck({
  name: 'rate-limit-429',
  column: '429',
  rules: RULES,
  needs: {},
  exercisesSuccess: false,
  cost: 'quota',
  instances: (model, options) => {
    const probe = model.operations.find((op) => op.kind === 'list' && op.responses.has('429'));
    if (!probe) return [];
    return [
      {
        subjects: [probe.label],
        run: (ctx, check) => rateLimitProbe(ctx, probe, check),
        ...(options.skipRateProbe ? { skip: options.skipRateProbe } : {}),
      },
    ];
  },
});

const QUOTA = /;\s*q=(\d+)/;

/** Quotas' worth of requests the probe sends looking for one window it can use up before it ends. */
const MAX_QUOTAS = 4;

/**
 * A window as an answer states it: `r` requests left after that one, and the earliest moment it
 * can end. `t` is whole seconds, rounded either way, so the window lasts more than `t` - 1 s
 * after the request was sent; a request answered before then was counted inside it.
 */
interface Window {
  left: number;
  endsNotBefore: number;
  /** Requests answered 200 since the reading, all before `endsNotBefore`. */
  used: number;
}

function windowOf(exchange: Exchange, sentAt: number, quota: number): Window {
  const limit = parseRateLimit(exchange.headers.get('ratelimit'));
  // Without a RateLimit header (a fault judged elsewhere) the probe counts the quota, as if the window never ended.
  return limit
    ? { left: limit.remaining, endsNotBefore: sentAt + (limit.resetSeconds - 1) * 1000, used: 0 }
    : { left: quota - 1, endsNotBefore: Infinity, used: 0 };
}

/**
 * Sends a few requests at a time until one is answered 429 or a window provably gave more than
 * it had left: more 200s than its `r`, every one answered before the window could have ended by
 * the target's own `t`. A 200 answered later may belong to the next window; the count starts
 * again from its reading, and the rest of its wave (counted on either side) is not used.
 */
async function useUpWindow(
  ctx: KitContext,
  op: OperationModel,
  auth: 'read' | 'api',
  first: Exchange,
  firstSentAt: number,
  quota: number,
): Promise<{ last: Exchange; what?: string } | { skipped: string; gate: string }> {
  if (first.status === 429) return { last: first };
  let window = windowOf(first, firstSentAt, quota);
  for (let sent = 1; sent <= MAX_QUOTAS * (quota + 1); ) {
    const wave = await Promise.all(
      Array.from({ length: Math.max(1, Math.min(PROBE_WAVE, window.left + 1 - window.used)) }, async () => {
        const sentAt = Date.now();
        const exchange = await ctx.send(op, { auth, query: { limit: '1' }, acceptRateLimit: true });
        return { exchange, sentAt, answeredAt: Date.now() };
      }),
    );
    sent += wave.length;
    const refused = wave.find((answer) => answer.exchange.status === 429);
    if (refused) return { last: refused.exchange };
    for (const answer of wave.sort((a, b) => a.answeredAt - b.answeredAt)) {
      if (answer.answeredAt >= window.endsNotBefore) {
        window = windowOf(answer.exchange, answer.sentAt, quota);
        break;
      }
      if (++window.used > window.left)
        return {
          last: answer.exchange,
          what: `request ${window.used} after RateLimit said r=${window.left}, answered ${Math.round(window.endsNotBefore - answer.answeredAt)} ms before that window could end by its t`,
        };
    }
  }
  return {
    skipped: `the quota's window (q=${quota}) ended before the probe could use it up, over ${MAX_QUOTAS} quotas' worth of requests`,
    gate: `the 429 probe could not use up one window of the quota q=${quota} before the window ended by its RateLimit t; run it against a target with a longer window, or declare it out of scope with --rate-probe skip`,
  };
}

async function rateLimitProbe(
  ctx: KitContext,
  op: OperationModel,
  check: Check<Rule>,
): Promise<'passed' | { skipped: string; gate: string }> {
  const auth = ctx.http.hasReadKey ? 'read' : 'api';
  const firstSentAt = Date.now();
  const first = await ctx.send(op, { auth, query: { limit: '1' }, acceptRateLimit: true });
  check.conform(op, first, { statuses: [200, 429] }, 'reading the quota');
  const policy = first.headers.get('ratelimit-policy');
  const quota = Number(QUOTA.exec(policy ?? '')?.[1]);
  if (!Number.isFinite(quota)) {
    check.failAll({
      at: op,
      found: [{ aspect: 'headers', message: `RateLimit-Policy has no quota: ${String(policy)}`, details: [] }],
      exchange: first,
    });
  }
  // The document names the quota of a key without one (the policy `unlimited`, q=2^32 - 1).
  const unlimited = Number(/named `unlimited` with `q=(\d+)`/.exec(ctx.model.doc.info.description ?? '')?.[1] ?? Infinity);
  if (quota >= unlimited) {
    return {
      skipped: `the ${auth === 'read' ? 'read' : 'API'} key has no quota (RateLimit-Policy q=${quota}, the document's "unlimited"): there is no 429 to provoke`,
      gate: `the 429 probe could not run: the ${auth === 'read' ? '--read-key' : '--api-key'} has no quota; give a key with one to check the 429, or declare the probe out of scope with --rate-probe skip`,
    };
  }
  if (quota > ctx.options.rateProbeMaxQuota) {
    return {
      skipped: `quota q=${quota} is over --rate-probe-max ${ctx.options.rateProbeMaxQuota}; not provoked`,
      gate: `the 429 probe did not run (quota q=${quota} is over --rate-probe-max ${ctx.options.rateProbeMaxQuota}): allow it with --rate-probe-max ${quota}, or declare it out of scope with --rate-probe skip`,
    };
  }
  const used = await useUpWindow(ctx, op, auth, first, firstSentAt, quota);
  if ('skipped' in used) return used;
  const { last, what = `a request past the quota q=${quota} within one window` } = used;
  if (last.status === 429) {
    const retryAfter = last.headers.get('retry-after');
    if (retryAfter === null)
      check.fail({ at: op, rule: 'rate-limits.4', observed: `the 429 to ${what} has no Retry-After`, exchange: last });
    if (!/^\d+$/.test(retryAfter))
      check.fail({ at: op, rule: 'header.RetryAfter.1', observed: `Retry-After ${retryAfter} is not in seconds`, exchange: last });
    const type = (last.json as { type?: unknown } | undefined)?.type;
    if (type !== `${PROBLEM_BASE}rate-limited`)
      check.fail({ at: op, rule: 'errors.19', observed: `the 429 has type ${String(type)}`, exchange: last });
  }
  check.conform(op, last, { statuses: [429], rules: ['rate-limits.4', 'response.TooManyRequests.1'] }, what);
  return 'passed';
}
