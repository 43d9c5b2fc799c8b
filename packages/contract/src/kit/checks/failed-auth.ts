// Failed authentication counted per client address whatever a request carries instead of a valid
// key: failures of every kind in turn (no Authorization, an unknown bearer key, another scheme, an
// empty bearer token), one at a time, until the address's limit answers 429; the 429 must come
// within the limit its policy states (a kind left uncounted pushes it later), and once over the
// limit every kind gets 429.
import { credentialKind, NO_VALID_KEY } from '../axes/answers.ts';
import type { KitContext } from '../context.ts';
import type { Exchange } from '../http.ts';
import { breach, crudNamed } from './rule-support.ts';

const QUOTA = /;\s*q=(\d+)/;

/** The headers of each kind of request without a valid key (no Authorization: none at all). */
export const FAILURES: Record<(typeof NO_VALID_KEY)[number], Record<string, string>> = {
  'no Authorization': {},
  'an unknown bearer key': { Authorization: 'Bearer contract-kit-unknown-key-0000' },
  'another scheme (Basic)': { Authorization: 'Basic a2l0OmtpdA==' },
  'an empty bearer token': { Authorization: 'Bearer ' },
};

export async function failedAuthCounting(ctx: KitContext, check: string): Promise<'passed' | { skipped: string } | { note: string }> {
  const { list } = crudNamed(ctx, 'policies');
  const send = (kind: (typeof NO_VALID_KEY)[number]) =>
    ctx.send(list, { auth: 'none', headers: FAILURES[kind], acceptRateLimit: true, query: { limit: '1' } });
  let sent = 0;
  let refused: Exchange | undefined;
  const cap = ctx.options.rateProbeMaxQuota;
  while (!refused && sent <= cap) {
    const kind = NO_VALID_KEY[sent % NO_VALID_KEY.length]!;
    const exchange = await send(kind);
    sent++;
    if (exchange.status === 429) refused = exchange;
    else if (exchange.status !== 401)
      breach(list.label, check, 'rate-limits.5', `a request with ${kind} answered ${exchange.status}, not 401`, [], exchange);
  }
  if (!refused)
    return { skipped: `no 429 after ${cap} failed authentications (--rate-probe-max): the address's limit is higher, or not enforced` };
  const limit = Number(QUOTA.exec(refused.headers.get('ratelimit-policy') ?? '')?.[1]);
  // Earlier failures of the run in the same window count too, so the 429 may come sooner, never later.
  if (Number.isFinite(limit) && sent - 1 > limit)
    breach(
      list.label,
      check,
      'rate-limits.5',
      `${sent - 1} failed authentications of ${NO_VALID_KEY.length} kinds in turn were answered 401 before the first 429, over the address's limit of ${limit}: some kind is not counted`,
      [],
      refused,
    );
  for (const kind of NO_VALID_KEY) {
    const exchange = await send(kind);
    if (exchange.status !== 429 || credentialKind(exchange) !== kind)
      breach(
        list.label,
        check,
        'rate-limits.5',
        `over the address's failed-authentication limit, a request with ${kind} answered ${exchange.status}, not 429`,
        [],
        exchange,
      );
  }
  return { note: `the first 429 came after ${sent - 1} failures (limit ${Number.isFinite(limit) ? limit : 'not stated'})` };
}
