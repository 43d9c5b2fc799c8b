// The RateLimit header held against the clock: over a few accepted requests some time apart, `r`
// falls by at least one per request (other clients of the key may take more) unless the window
// ended, and `t` counts down with the time that passed, never announcing a later end than before;
// a window may end only when `t` said it would. After the 429 probe, a request sent before its
// Retry-After has passed is refused again, with a Retry-After no later than the first one said, and
// both 429s meet the cross-cutting rules (CORS, RateLimit headers, a problem document).
import { setTimeout as sleep } from 'node:timers/promises';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { type Exchange, parseRateLimit } from '../http.ts';
import { crossCuttingBreaches, DEFAULT_CORS_ORIGIN } from './shared/cross-cutting.ts';
import { crudNamed } from './shared/rule-support.ts';

const RULES = [
  'header.RateLimit.1',
  'rate-limits.4',
  'header.RetryAfter.1',
  'browser-clients-cors.1',
  'browser-clients-cors.3',
  'rate-limits.2',
  'errors.1',
] as const;
type Rule = (typeof RULES)[number];

/** After the 429 probe, whose used-up quota gives it a 429 to judge. */
export const rateLimitClockCheck = defineCheck({
  name: 'rate-limit-clock',
  column: 'clock',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 4, perCase: 0 },
  instances: (model, options) => {
    const list = model.resources.find((r) => r.name === 'policies')?.list;
    return list ? [{ subjects: [list.label], run: (ctx, check) => rateLimitClock(ctx, check, options.corsOrigin) }] : [];
  },
});

const SAMPLES = 3;
const APART_MS = 300;
/** `t` is whole seconds: each reading may be rounded by up to one. */
const ROUNDING = 1;

async function rateLimitClock(ctx: KitContext, check: Check<Rule>, corsOrigin: string | undefined): Promise<'passed' | { note: string }> {
  const { list } = crudNamed(ctx, 'policies');
  const readings: { exchange: Exchange; at: number; remaining: number; reset: number }[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) await sleep(APART_MS);
    const at = performance.now();
    const exchange = await ctx.send(list, { auth: 'api', query: { limit: '1' }, acceptRateLimit: true });
    // Without a read key the probe used up the API key's quota: its clock is read from the 429s below.
    if (exchange.status === 429)
      return (await retryAfterHolds(ctx, check, corsOrigin)) ?? { note: 'the API key is over its quota: r and t not read' };
    check.conform(list, exchange, { statuses: [200] }, 'a read for the RateLimit header');
    const parsed = parseRateLimit(exchange.headers.get('ratelimit'));
    if (!parsed)
      check.fail({
        at: list,
        rule: 'header.RateLimit.1',
        observed: `RateLimit ${String(exchange.headers.get('ratelimit'))} has no r and t`,
        exchange,
      });
    readings.push({ exchange, at, remaining: parsed.remaining, reset: parsed.resetSeconds });
  }
  // A key without a quota (the document's `unlimited` policy) has nothing to count down.
  const unlimited = Number(/named `unlimited` with `q=(\d+)`/.exec(ctx.model.doc.info.description ?? '')?.[1] ?? Infinity);
  const quota = Number(/;\s*q=(\d+)/.exec(readings[0]!.exchange.headers.get('ratelimit-policy') ?? '')?.[1]);
  if (quota >= unlimited) return { note: 'the API key has no quota (the unlimited policy): RateLimit not held against the clock' };
  for (let i = 1; i < readings.length; i++) {
    const [before, after] = [readings[i - 1]!, readings[i]!];
    const elapsed = (after.at - before.at) / 1000;
    const windowEnded = after.remaining > before.remaining - 1;
    if (windowEnded && elapsed + ROUNDING < before.reset)
      check.fail({
        at: list,
        rule: 'header.RateLimit.1',
        observed: `r went from ${before.remaining} to ${after.remaining} ${elapsed.toFixed(1)} s later, but t had said the window resets in ${before.reset} s`,
        exchange: after.exchange,
      });
    if (!windowEnded && after.reset > before.reset + ROUNDING)
      check.fail({
        at: list,
        rule: 'header.RateLimit.1',
        observed: `t went up from ${before.reset} to ${after.reset} within one window (r ${before.remaining} → ${after.remaining})`,
        exchange: after.exchange,
      });
    if (!windowEnded && after.reset < before.reset - elapsed - ROUNDING)
      check.fail({
        at: list,
        rule: 'header.RateLimit.1',
        observed: `t fell from ${before.reset} to ${after.reset} in ${elapsed.toFixed(1)} s within one window: faster than the clock`,
        exchange: after.exchange,
      });
  }
  return (await retryAfterHolds(ctx, check, corsOrigin)) ?? 'passed';
}

/** After the quota probe: a 429 now, and a request right after it, before its Retry-After has passed, is refused again. */
async function retryAfterHolds(ctx: KitContext, check: Check<Rule>, corsOrigin: string | undefined): Promise<{ note: string } | undefined> {
  const { list } = crudNamed(ctx, 'policies');
  const auth = ctx.http.hasReadKey ? ('read' as const) : ('api' as const);
  const started = performance.now();
  const origin = { Origin: corsOrigin ?? DEFAULT_CORS_ORIGIN };
  const first = await ctx.send(list, { auth, query: { limit: '1' }, headers: origin, acceptRateLimit: true });
  const seconds = Number(first.headers.get('retry-after'));
  if (first.status !== 429 || !Number.isFinite(seconds) || seconds < 2)
    return { note: `the ${auth} key is not over its quota (no 429 probe before this check): Retry-After not held against the clock` };
  const again = await ctx.send(list, { auth, query: { limit: '1' }, headers: origin, acceptRateLimit: true });
  const elapsed = (performance.now() - started) / 1000;
  if (again.status !== 429)
    check.fail({
      at: list,
      rule: 'rate-limits.4',
      observed: `a request sent ${elapsed.toFixed(1)} s after a 429 with Retry-After ${seconds} answered ${again.status}`,
      exchange: again,
    });
  const next = Number(again.headers.get('retry-after'));
  if (Number.isFinite(next) && next > seconds + ROUNDING)
    check.fail({
      at: list,
      rule: 'header.RetryAfter.1',
      observed: `a second 429 ${elapsed.toFixed(1)} s later says Retry-After ${next}, later than the ${seconds} s the one before said`,
      exchange: again,
    });
  // The 429s are answers like any other: from an origin, with the RateLimit headers, as problems.
  const allowed = corsOrigin !== undefined || first.headers.get('access-control-allow-origin') !== null ? origin.Origin : undefined;
  const broken = [first, again].flatMap((exchange) => crossCuttingBreaches(check, exchange, allowed));
  if (broken.length > 0) check.failAll({ at: list, found: broken, exchange: first });
  return undefined;
}
