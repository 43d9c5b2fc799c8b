// Retries as the document states them, with receivers of the kit that fail on purpose: the retry
// carries the same id and bytes, comes after the documented first wait (±20 %) or a longer
// Retry-After, a redirect is a failure and is not followed, and `last_delivery` says how it ended.
import { randomUUID } from 'node:crypto';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Delivery, Responder } from '../receiver.ts';
import { attempts, COPY_WINDOW_MS, clientErrorFor, isCopy } from './shared/attempts.ts';
import { documentedResources, labels } from './shared/documented.ts';
import { createFinding, findingOf, label } from './shared/finding-events.ts';
import { judgeLastDelivery, retryWaits } from './shared/last-delivery.ts';
import { oncePerRun } from './shared/once-per-run.ts';
import { firstRetry, type RetryTiming } from './shared/retry-schedule.ts';
import { deliveryId, newSecret, parseBody, type Sink, sink, subscribe } from './shared/rule-support.ts';
import { idAndTimeViolations, timestampOf } from './shared/signatures.ts';

const RULES = [
  'delivery-headers.3',
  'delivery-and-retries.1',
  'delivery-and-retries.2',
  'delivery-and-retries.4',
  'slow-and-failing-receivers.9',
  'delivery-headers.6',
  'delivery-headers.7',
  'schema.LastDelivery.1',
  'schema.LastDelivery.3',
  'schema.WebhookUrl.3',
  'param.DeliveryHeader.2',
  'response.ReceiverRetry.1',
  'response.ReceiverRetry.2',
  'response.ReceiverAccepted.1',
  'param.StandardIdHeader.1',
  'param.StandardTimestampHeader.1',
] as const;
type Rule = (typeof RULES)[number];

export const deliveryRetryCheck = defineCheck({
  name: 'delivery-retry',
  column: 'retry',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, options) => {
    const found = documentedResources(model);
    if (!found) return [];
    const timing = options.skipRetryTiming ? { skip: options.skipRetryTiming } : {};
    return [
      {
        subjects: labels(found.hook('finding.created')),
        run: (ctx, check) => deliveryRetry(ctx, check, timing),
        prepare: (ctx, check) => void startRetryProbe(ctx, check, timing),
      },
    ];
  },
});

/**
 * How late deliveries reach the kit after the time they carry (`webhook-timestamp`, whole seconds,
 * so a second is taken off), at most; 0 on a quick network or a clock ahead of the kit's. The
 * schedule counts a wait from when the service got the answer, which the kit sees only from its
 * side: the answer's way back, one of the webhook's own attempts to end before the retry gets its
 * slot (at most a round trip), and the retry's way here each take about this long.
 */
function lateness(deliveries: Delivery[]): number {
  const lates = deliveries.map((d) => d.receivedAt - ((timestampOf(d) ?? Infinity) + 1) * 1000).filter(Number.isFinite);
  return Math.max(0, ...lates);
}

/**
 * Answers the first attempt of each delivery of the kit's own finding (its title carries `token`)
 * with `failure`, everything else 204 (other events must not open the webhook's circuit); keeps
 * what it answered.
 */
const about = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function failFirst(
  token: string,
  failure: () => { status: number; headers?: Record<string, string> },
  copyWindowMs: number,
): Responder & { answered: number[] } {
  const firsts = new Map<string, Delivery>();
  const answered: number[] = [];
  const responder: Responder = (delivery) => {
    const id = deliveryId(delivery);
    const mine = String(parseBody(delivery)?.data?.title ?? '').includes(token);
    const first = firsts.get(id);
    // Every copy of the first attempt fails, so that attempt fails however many copies arrive.
    const answer = !mine || (first && !isCopy(first, delivery, copyWindowMs)) ? { status: 204 } : failure();
    if (!first) firsts.set(id, delivery);
    answered.push(answer.status);
    return answer;
  };
  return Object.assign(responder, { answered });
}

interface RetrySetup {
  failing: Sink & { answered: number[] };
  followed: Sink;
  redirecting: Sink;
  /** Answers the first attempt with a client error (`refusedWith`): "anything else" is retried too. */
  refusing: Sink;
  refusedWith: number;
  later: Sink | undefined;
  failingHook: { id: string };
  finding: { id: string };
  retryAfterSeconds: number;
}

/**
 * The receivers that fail on purpose, their webhooks and the finding whose event they get: set up
 * once per run, as early as the plan allows (the check's `prepare`), so the retry waits overlap the
 * other checks.
 */
const startRetryProbe = oncePerRun(async (ctx: KitContext, check: Check<Rule>, timing: RetryTiming): Promise<RetrySetup> => {
  const schedule = firstRetry(ctx);
  const retryAfterSeconds = schedule ? Math.ceil((schedule.ms * (1 + schedule.jitter)) / 1000) + 2 : 8;
  const token = `kit-retry-${randomUUID()}`;
  const copies = timing.skip ? 0 : COPY_WINDOW_MS;
  const failFirst500 = failFirst(token, () => ({ status: 500 }), copies);
  const failing = Object.assign(await sink(ctx, 'retry-500', failFirst500), { answered: failFirst500.answered });
  const followed = await sink(ctx, 'retry-followed');
  const redirecting = await sink(
    ctx,
    'retry-307',
    failFirst(token, () => ({ status: 307, headers: { Location: followed.url } }), copies),
  );
  const refusedWith = clientErrorFor(ctx.options.seed);
  const refusing = await sink(
    ctx,
    'retry-4xx',
    failFirst(token, () => ({ status: refusedWith }), copies),
  );
  const later = timing.skip
    ? undefined
    : await sink(
        ctx,
        'retry-after',
        failFirst(token, () => ({ status: 503, headers: { 'Retry-After': String(retryAfterSeconds) } }), copies),
      );
  const failingHook = await subscribe(ctx, check, failing.url, ['finding.created'], { secret: newSecret() });
  await subscribe(ctx, check, redirecting.url, ['finding.created']);
  await subscribe(ctx, check, refusing.url, ['finding.created']);
  if (later) await subscribe(ctx, check, later.url, ['finding.created']);
  const finding = await createFinding(ctx, check, { title: token });
  return { failing, followed, redirecting, refusing, refusedWith, later, failingHook, finding, retryAfterSeconds };
});

/**
 * `delivery-retry`: receivers that fail the first attempt on purpose (500, a redirect, 503 with a
 * long Retry-After) get a retry with the same X-Service-Delivery and the same bytes, after the
 * documented wait; the redirect is not followed; a later 2xx shows in last_delivery.
 */
async function deliveryRetry(ctx: KitContext, check: Check<Rule>, timing: RetryTiming): Promise<'passed' | { note: string }> {
  const subject = label(ctx, 'finding.created');
  const schedule = firstRetry(ctx);
  const { failing, followed, redirecting, refusing, refusedWith, later, failingHook, finding, retryAfterSeconds } = await startRetryProbe(
    ctx,
    check,
    timing,
  );
  const mine = (s: Sink) =>
    attempts(
      s.deliveries().filter((x) => findingOf(x) === finding.id),
      timing.skip ? 0 : COPY_WINDOW_MS,
    );
  const timeout = Math.max(ctx.options.eventTimeoutMs, (later ? retryAfterSeconds * 1000 * 1.2 : 0) + 5000);
  const waited = await failing.waitFor(
    () => mine(failing).length >= 2 && mine(redirecting).length >= 2 && mine(refusing).length >= 2 && (!later || mine(later).length >= 2),
    'first attempts and their retries',
    timeout,
  );
  const note = `the kit waited ${waited.waitedMs} ms for the retries`;
  const [first, retry] = mine(failing);
  if (!first || !retry)
    check.fail({
      at: subject,
      rule: 'delivery-and-retries.4',
      observed: `a delivery answered 500 was ${first ? 'not retried' : 'never sent'}`,
      details: [note],
    });
  if (deliveryId(first) !== deliveryId(retry))
    check.fail({
      at: subject,
      rule: ['delivery-headers.3', 'param.DeliveryHeader.2'],
      observed: `the retry came with X-Service-Delivery ${deliveryId(retry)}, the first attempt with ${deliveryId(first)}`,
      details: [note],
    });
  // A retry carries its own time: its webhook-timestamp moves on by about the wait (2 s of slack for rounding and the network).
  const [stamped, restamped] = [timestampOf(first), timestampOf(retry)];
  const moved = Math.floor((retry.receivedAt - first.receivedAt) / 1000) - 2;
  if (stamped !== undefined && restamped !== undefined && restamped - stamped < moved) {
    check.fail({
      at: subject,
      rule: 'param.StandardTimestampHeader.1',
      observed: `the retry came ${about(retry.receivedAt - first.receivedAt)} after the first attempt with webhook-timestamp ${restamped}, the first attempt's was ${stamped}: a retry carries its own time`,
    });
  }
  const [headerFault] = [first, retry].flatMap((delivery) => idAndTimeViolations(check, delivery));
  if (headerFault) check.failAll({ at: subject, found: [headerFault] });
  if (!first.raw.equals(retry.raw))
    check.fail({
      at: subject,
      rule: 'slow-and-failing-receivers.9',
      observed: 'the retry body is not byte-identical to the first attempt',
      details: [first.raw.toString('utf8').slice(0, 300), retry.raw.toString('utf8').slice(0, 300)],
    });
  const [redirected, redirectRetry] = mine(redirecting);
  if (!redirected || !redirectRetry)
    check.fail({
      at: subject,
      rule: ['delivery-and-retries.2', 'response.ReceiverRetry.1'],
      observed: `a delivery answered 307 was ${redirected ? 'not retried (a 3xx is a failure)' : 'never sent'}`,
      details: [note],
    });
  const [refused, refusedRetry] = mine(refusing);
  if (!refused || !refusedRetry)
    check.fail({
      at: subject,
      rule: ['delivery-and-retries.4', 'response.ReceiverRetry.1'],
      observed: `a delivery answered ${refusedWith} was ${refused ? 'not retried (any status but 2xx and 410 is)' : 'never sent'}`,
      details: [note],
    });
  if (followed.deliveries().length > 0)
    check.fail({
      at: subject,
      rule: ['schema.WebhookUrl.3', 'delivery-and-retries.2', 'response.ReceiverRetry.2'],
      observed: 'the service followed a redirect to the Location the receiver named',
      details: [note],
    });

  const notes = [note];
  if (!timing.skip && schedule) {
    const gap = retry.receivedAt - first.receivedAt;
    const late = lateness(failing.deliveries());
    const [low, high] = [schedule.ms * (1 - schedule.jitter), schedule.ms * (1 + schedule.jitter) + 1000 + 4 * late];
    if (gap < low || gap > high)
      check.fail({
        at: subject,
        rule: 'delivery-and-retries.4',
        observed: `the first retry came ${about(gap)} after the first attempt; the document says about ${about(schedule.ms)} ±${schedule.jitter * 100} % (the kit allows ${about(low)} to ${about(high)}${late > 0 ? `, deliveries to this webhook arriving up to ${about(late)} after their webhook-timestamp` : ''})`,
      });
    notes.push(`first retry after ${about(gap)}`);
    const [held, heldRetry] = later ? mine(later) : [];
    if (!held || !heldRetry)
      check.fail({
        at: subject,
        rule: 'delivery-and-retries.4',
        observed: `a delivery answered 503 with Retry-After: ${retryAfterSeconds} was not retried within ${about(timeout)}`,
        details: [note],
      });
    const heldGap = heldRetry.receivedAt - held.receivedAt;
    if (heldGap < retryAfterSeconds * 1000 - 250)
      check.fail({
        at: subject,
        rule: 'delivery-and-retries.4',
        observed: `a receiver asked for Retry-After: ${retryAfterSeconds} (longer than the first wait) and the retry came after ${about(heldGap)}`,
      });
    notes.push(`retry after Retry-After: ${retryAfterSeconds} came after ${about(heldGap)}`);
  } else if (timing.skip) {
    notes.push(`waits not judged: ${timing.skip}`);
  }
  // last_delivery is the most recent attempt, which other events may have made since: it must say
  // succeeded exactly for a 2xx, and show a 2xx once the receiver's latest answer was one.
  const waits = retryWaits(ctx);
  const lost = await judgeLastDelivery(ctx, check, {
    failing,
    hookId: failingHook.id,
    attempts: () => mine(failing),
    // On a compressed schedule the next wait is unknown: the kit's event timeout bounds it.
    nextRetryWithinMs: (made) =>
      !timing.skip && schedule && waits[made - 1] !== undefined
        ? waits[made - 1]! * (1 + schedule.jitter) + 1000
        : ctx.options.eventTimeoutMs,
  });
  if (lost) notes.push(lost);
  return { note: notes.join('; ') };
}
