// The 429 probe: reads the key's quota from RateLimit-Policy and, when it is small enough to use
// up quickly, sends requests until the target answers 429, which must carry Retry-After, the
// RateLimit headers and a problem body. Uses the read key when there is one, so the write key
// keeps its quota for cleanup.
import type { KitContext } from '../context.ts';
import type { OperationModel } from '../spec.ts';
import { ContractViolation } from '../verify.ts';
import { PROBLEM_BASE } from './problem-rules.ts';
import { breach } from './rule-support.ts';

const QUOTA = /;\s*q=(\d+)/;
/** Requests the probe has in flight at once. */
export const PROBE_WAVE = 8;

export async function rateLimitProbe(
  ctx: KitContext,
  op: OperationModel,
  check: string,
): Promise<'passed' | { skipped: string; gate: string }> {
  const auth = ctx.http.hasReadKey ? 'read' : 'api';
  const first = await ctx.send(op, { auth, query: { limit: '1' }, acceptRateLimit: true });
  ctx.expect(op, check, first, { statuses: [200, 429] }, 'reading the quota');
  const policy = first.headers.get('ratelimit-policy');
  const quota = Number(QUOTA.exec(policy ?? '')?.[1]);
  if (!Number.isFinite(quota)) {
    throw new ContractViolation(
      op.label,
      check,
      [{ aspect: 'headers', message: `RateLimit-Policy has no quota: ${String(policy)}`, details: [] }],
      first,
    );
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
  // A few requests at a time: a development quota of thousands is used up in seconds, and the
  // 429 still comes within the window (a few requests past the quota change nothing).
  let last = first;
  for (let sent = 0; sent <= quota && last.status !== 429; ) {
    const wave = await Promise.all(
      Array.from({ length: Math.min(PROBE_WAVE, quota + 1 - sent) }, () =>
        ctx.send(op, { auth, query: { limit: '1' }, acceptRateLimit: true }),
      ),
    );
    sent += wave.length;
    last = wave.find((exchange) => exchange.status === 429) ?? wave.at(-1)!;
  }
  const what = `request ${quota + 1} within one window of a ${quota}-request quota`;
  if (last.status === 429) {
    const retryAfter = last.headers.get('retry-after');
    if (retryAfter === null) breach(op.label, check, 'rate-limits.4', `the 429 to ${what} has no Retry-After`, [], last);
    if (!/^\d+$/.test(retryAfter)) breach(op.label, check, 'header.RetryAfter.1', `Retry-After ${retryAfter} is not in seconds`, [], last);
    const type = (last.json as { type?: unknown } | undefined)?.type;
    if (type !== `${PROBLEM_BASE}rate-limited`) breach(op.label, check, 'errors.19', `the 429 has type ${String(type)}`, [], last);
  }
  ctx.expect(op, check, last, { statuses: [429], rules: ['rate-limits.4', 'response.TooManyRequests.1'] }, what);
  return 'passed';
}
