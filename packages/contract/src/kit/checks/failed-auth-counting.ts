// Failed authentication counted per client address whatever a request carries instead of a valid
// key: failures of every kind in turn (no Authorization, an unknown bearer key, another scheme, an
// empty bearer token), one at a time, until the address's limit answers 429; the 429 must come
// within the limit its policy states (a kind left uncounted pushes it later), and until the window
// ends every kind gets 429.
//
// Only what one window holds is judged, and the window is the one the 429 states: it ends `t`
// seconds after that answer (whole seconds, rounded up; `Retry-After` when `RateLimit` is absent)
// and began `w` seconds before its end, so failures sent before it began may have fallen in an
// earlier window that reset, and a request sent after it may have ended is owed nothing.
//
// `Retry-After` is the wait until that window ends, so it is held against what the kit knows of
// the window: never longer than `w`, and never past the end of a window holding the last `q`
// failures the kit sent (fixed or sliding, such a window began by the earliest of them). A short
// wait is also taken at its word: a failure sent once it is over is answered 401 again.
import { setTimeout as sleep } from 'node:timers/promises';
import { credentialKind, NO_VALID_KEY } from '../axes/answers.ts';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { type Exchange, parseRateLimit } from '../http.ts';
import type { OperationModel } from '../spec.ts';
import { crudNamed } from './shared/rule-support.ts';

const RULES = ['rate-limits.5'] as const;
type Rule = (typeof RULES)[number];

/** Last of all: over the address's failed-authentication limit, nothing without a valid key is answered for a while. */
export const failedAuthCountingCheck = defineCheck({
  name: 'failed-auth-counting',
  column: 'authcount',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, options) => {
    const list = model.resources.find((r) => r.name === 'policies')?.list;
    if (!list?.responses.has('401')) return [];
    return [
      {
        subjects: [list.label],
        run: (ctx, check) => failedAuthCounting(ctx, check),
        ...(options.skipRateProbe ? { skip: options.skipRateProbe } : {}),
      },
    ];
  },
});

const QUOTA = /;\s*q=(\d+)/;
const WINDOW = /;\s*w=(\d+)/;
/** A little over a second: `t` is whole seconds. */
const WHOLE_SECOND_MS = 1_100;
/** The longest `Retry-After` the kit waits out to see the window end. */
const WAITED_OUT_SECONDS = 5;

/** The headers of each kind of request without a valid key (no Authorization: none at all). */
const FAILURES: Record<(typeof NO_VALID_KEY)[number], Record<string, string>> = {
  'no Authorization': {},
  'an unknown bearer key': { Authorization: 'Bearer contract-kit-unknown-key-0000' },
  'another scheme (Basic)': { Authorization: 'Basic a2l0OmtpdA==' },
  'an empty bearer token': { Authorization: 'Bearer ' },
};

interface Timed {
  exchange: Exchange;
  sentAt: number;
  answeredAt: number;
}

/** A 429's `Retry-After` in whole seconds; undefined when it is absent or an HTTP date. */
const retryAfterOf = (answer: Timed) => {
  const value = answer.exchange.headers.get('retry-after') ?? '';
  return /^\d+$/.test(value) ? Number(value) : undefined;
};

/** The window `w` an answer's `RateLimit-Policy` states, in seconds (NaN without one). */
const policySecondsOf = (answer: Timed) => Number(WINDOW.exec(answer.exchange.headers.get('ratelimit-policy') ?? '')?.[1]);

/** The 429's window as far as its headers let a client know it: the latest it can have begun, the earliest it can end. */
function windowOf(refused: Timed): { begunBy: number; endsAfter: number } | undefined {
  const reset = parseRateLimit(refused.exchange.headers.get('ratelimit'))?.resetSeconds ?? retryAfterOf(refused);
  const seconds = policySecondsOf(refused);
  if (reset === undefined || !Number.isFinite(seconds)) return undefined;
  return { begunBy: refused.answeredAt + (reset - seconds) * 1000, endsAfter: refused.sentAt + (reset - 1) * 1000 };
}

async function failedAuthCounting(ctx: KitContext, check: Check<Rule>): Promise<'passed' | { skipped: string } | { note: string }> {
  const { list } = crudNamed(ctx, 'policies');
  const send = async (kind: (typeof NO_VALID_KEY)[number]): Promise<Timed> => {
    const sentAt = Date.now();
    const exchange = await ctx.send(list, { auth: 'none', headers: FAILURES[kind], acceptRateLimit: true, query: { limit: '1' } });
    return { exchange, sentAt, answeredAt: Date.now() };
  };
  const failures: Timed[] = [];
  let refused: Timed | undefined;
  const cap = ctx.options.rateProbeMaxQuota;
  while (!refused && failures.length <= cap) {
    const kind = NO_VALID_KEY[failures.length % NO_VALID_KEY.length]!;
    const answer = await send(kind);
    // A window that began with this first failure is known to have begun only to the whole second:
    // the failures after a pause of a second are then certainly in it, and can be counted.
    if (failures.length === 0 && answer.exchange.status === 401) await sleep(WHOLE_SECOND_MS);
    if (answer.exchange.status === 429) refused = answer;
    else if (answer.exchange.status === 401) failures.push(answer);
    else
      check.fail({
        at: list,
        rule: 'rate-limits.5',
        observed: `a request with ${kind} answered ${answer.exchange.status}, not 401`,
        exchange: answer.exchange,
      });
  }
  if (!refused)
    return { skipped: `no 429 after ${cap} failed authentications (--rate-probe-max): the address's limit is higher, or not enforced` };
  const limit = Number(QUOTA.exec(refused.exchange.headers.get('ratelimit-policy') ?? '')?.[1]);
  const window = windowOf(refused);
  // Earlier failures of the run in the same window count too, so the 429 may come sooner, never later.
  const inWindow = window ? failures.filter((f) => f.sentAt >= window.begunBy) : failures;
  if (Number.isFinite(limit) && inWindow.length > limit)
    check.fail({
      at: list,
      rule: 'rate-limits.5',
      observed: `${inWindow.length} failed authentications of ${NO_VALID_KEY.length} kinds in turn were answered 401 within the window of the first 429, over the address's limit of ${limit}: some kind is not counted`,
      exchange: refused.exchange,
    });
  const followUps: Timed[] = [];
  for (const kind of NO_VALID_KEY) {
    const answer = await send(kind);
    if (answer.exchange.status === 429) followUps.push(answer);
    const owed = !window || answer.answeredAt < window.endsAfter;
    if (owed && (answer.exchange.status !== 429 || credentialKind(answer.exchange) !== kind))
      check.fail({
        at: list,
        rule: 'rate-limits.5',
        observed: `over the address's failed-authentication limit, before its window could end, a request with ${kind} answered ${answer.exchange.status}, not 429`,
        exchange: answer.exchange,
      });
  }
  const refusals = [refused, ...followUps];
  const stated = { limit, seconds: policySecondsOf(refused) };
  for (const broken of retryAfterBreaks(refusals, failures, stated))
    check.fail({ at: list, rule: 'rate-limits.5', observed: broken.observed, exchange: broken.exchange });
  await expectWindowEnd(followUps.at(-1) ?? refused, send, check, list);
  return {
    note: `the first 429 came after ${inWindow.length} failures in its window, ${failures.length} in all (limit ${Number.isFinite(limit) ? limit : 'not stated'})`,
  };
}

/**
 * Each 429's `Retry-After` against the window: at most `w`, and at most the time left of a window
 * that began by the earliest of the last `q` failures before it (answered by then, so counted by
 * then), rounded up to the whole second.
 */
function retryAfterBreaks(
  refusals: readonly Timed[],
  failures: readonly Timed[],
  { limit, seconds }: { limit: number; seconds: number },
): { observed: string; exchange: Exchange }[] {
  if (!Number.isFinite(seconds)) return [];
  const begunBy = Number.isFinite(limit) ? failures[Math.max(0, failures.length - limit)]?.answeredAt : undefined;
  return refusals.flatMap((refusal) => {
    const wait = retryAfterOf(refusal);
    if (wait === undefined) return [];
    if (wait > seconds)
      return [
        {
          observed: `a failed-authentication 429 says Retry-After ${wait}, longer than the window of ${seconds} s its RateLimit-Policy states`,
          exchange: refusal.exchange,
        },
      ];
    if (begunBy === undefined) return [];
    const left = Math.ceil((begunBy + seconds * 1000 - refusal.sentAt) / 1000);
    return wait > left
      ? [
          {
            observed: `a failed-authentication 429 says Retry-After ${wait}, but its ${seconds}-second window held failures the kit had sent ${((refusal.sentAt - begunBy) / 1000).toFixed(1)} s before, so it ends within ${left} s`,
            exchange: refusal.exchange,
          },
        ]
      : [];
  });
}

/** A short `Retry-After` waited out (and a second more, for its rounding): the next failure starts a new window, so it is answered 401. */
async function expectWindowEnd(
  last: Timed,
  send: (kind: (typeof NO_VALID_KEY)[number]) => Promise<Timed>,
  check: Check<Rule>,
  list: OperationModel,
): Promise<void> {
  const wait = retryAfterOf(last);
  if (wait === undefined || wait > WAITED_OUT_SECONDS) return;
  await sleep(Math.max(0, last.answeredAt + wait * 1000 + WHOLE_SECOND_MS - Date.now()));
  const kind = NO_VALID_KEY[0];
  const after = await send(kind);
  if (after.exchange.status !== 401)
    check.fail({
      at: list,
      rule: 'rate-limits.5',
      observed: `a failed-authentication 429 said Retry-After ${wait}; a request with ${kind} sent ${((after.sentAt - last.answeredAt) / 1000).toFixed(1)} s after it answered ${after.exchange.status}, not 401`,
      exchange: after.exchange,
    });
}
