// A webhook's circuit, seen from its receiver: three events raised for one webhook only (the
// test-support route's `webhook_id`, so no other client's event comes between), each failing, open
// its circuit; a fourth event raised once the service has had time to count the third failure must
// then wait for a probe: a retry answered (the receiver answers `204` to every request once the
// fourth event is raised), or its own first attempt after the 5 s pause. A service without the
// circuit sends it at once. One webhook per kind of failure the document names: a `5xx`, a `429`
// (without `Retry-After`) and a connection reset without an answer, each on its own event type.
// The `5xx` asks for its retries an hour later, so only new deliveries can probe: the fourth event
// is the probe, after the 5 s pause; it fails too, and a fifth event must then wait the doubled
// pause (10 s) after that failure.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { isRaisable, raiseEvent } from '../raise.ts';
import type { Answer, Delivery } from '../receiver.ts';
import { carries } from './shared/attribute.ts';
import { documentedResources } from './shared/documented.ts';
import { chosenIds } from './shared/event-run.ts';
import { oncePerRun } from './shared/once-per-run.ts';
import type { RetryTiming } from './shared/retry-schedule.ts';
import { crudNamed, deliveryId, parseBody, type Sink, sink, subscribe } from './shared/rule-support.ts';

const RULES = ['slow-and-failing-receivers.4'] as const;
type Rule = (typeof RULES)[number];

/** Failures in a row that open a webhook's circuit, and the pause before a new delivery may probe it. */
const BREAK_AFTER = 3;
const PAUSE_MS = 5_000;
/** The pause may be shorter by this much (the retry schedule's ±20 % jitter) before a new delivery is early. */
const PAUSE_SLACK = 0.2;
/** How long after the third failure the fourth event is raised, at least, and in latencies of the first three. */
const SETTLE_MIN_MS = 1_000;
const SETTLE_LATENCIES = 2;

/** Longer than any pause: the failed deliveries' retries wait it out, so only new deliveries probe. */
const RETRY_AFTER_S = 3_600;

/**
 * The failures that count towards the circuit, each with how the report names it; `failedProbe`:
 * the fourth event, the probe, fails as well, and a fifth must wait the doubled pause.
 */
const FAILURES: readonly { answer: Answer; says: string; failedProbe?: true }[] = [
  {
    answer: { status: 500, headers: { 'retry-after': String(RETRY_AFTER_S) } },
    says: 'answered 500 with Retry-After an hour',
    failedProbe: true,
  },
  { answer: { status: 429 }, says: 'answered 429 without Retry-After' },
  { answer: { status: 204, reset: true }, says: 'reset without an answer' },
];
type Failure = (typeof FAILURES)[number];

export const circuitBreakerCheck = defineCheck({
  name: 'circuit-breaker',
  column: 'circuit',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: false,
  // The webhook subscribed and deleted, and the four events raised (five where the probe fails).
  cost: { fixed: 2 + BREAK_AFTER + 1, perCase: 0 },
  instances: (model, options) => {
    if (!documentedResources(model)) return [];
    const timing: RetryTiming = options.skipRetryTiming ? { skip: options.skipRetryTiming } : {};
    return model.webhooks
      .filter((w) => isRaisable(w.event))
      .slice(0, FAILURES.length)
      .map((webhook, i) => {
        const failure = FAILURES[i]!;
        return {
          subjects: [webhook.label],
          run: (ctx, check) => circuitBreaker(ctx, check, timing, webhook.event, failure),
          prepare: (ctx, check) => void openCircuit(ctx, check, webhook.event, failure),
        };
      });
  },
});

/** What the receiver saw: when the third failure was answered, the fourth event raised, and every request. */
interface Opened {
  sink: Sink;
  hookId: string;
  event: string;
  /** The ids the fourth event carries, to tell its deliveries from the first three's. */
  fourth: Record<string, unknown>;
  thirdFailureAt: number;
  fourthRaisedAt: number;
  /** After a failed probe: when the fourth event's attempt failed, and the ids of the fifth, raised after it. */
  failedProbe?: { failedAt: number; fifth: Record<string, unknown>; raisedAt: number };
}

type Outcome = Opened | { skipped: string };

/** Time for the service to count a failure before the next event: its own pace, doubled. */
const settle = (latencyMs: number) => new Promise((resolve) => setTimeout(resolve, Math.max(SETTLE_MIN_MS, SETTLE_LATENCIES * latencyMs)));

/**
 * Subscribes a webhook to `event`, raises three events for it alone and fails them with `failure`,
 * then raises the fourth; after a failed probe (`failure.failedProbe`), the fifth.
 */
async function startCircuit(ctx: KitContext, check: Check<Rule>, event: string, failure: Failure): Promise<Outcome> {
  if (ctx.options.triggerCommand) return { skipped: 'a trigger command cannot raise an event for one webhook only' };
  const webhook = ctx.model.webhooks.find((w) => w.event === event);
  if (!webhook || ctx.options.eventsOutOfScope.includes(event)) return { skipped: `${event} is out of scope` };
  // Every request fails until the last event is raised (a copy of one, which the document allows,
  // must not count as an answered attempt); then all get 204. When each delivery first failed.
  const failedAt = new Map<string, number>();
  let failing = true;
  const circuit = await sink(ctx, `circuit-${event}`, (delivery) => {
    if (!failing) return { status: 204 };
    if (!failedAt.has(deliveryId(delivery))) failedAt.set(deliveryId(delivery), Date.now());
    return failure.answer;
  });
  const hook = await subscribe(ctx, check, circuit.url, [webhook.event]);
  const raise = async () => {
    const data = chosenIds(ctx, webhook);
    const outcome = await raiseEvent(ctx, { event: webhook.event, webhookId: hook.id, data });
    return { data, outcome };
  };
  const raisedAt = Date.now();
  const first = await Promise.all(Array.from({ length: BREAK_AFTER }, raise));
  for (const { outcome } of first) {
    if ('cannot' in outcome) return { skipped: outcome.cannot };
    if ('refused' in outcome) return { skipped: `the events could not be raised: ${outcome.refused}` };
  }
  const threeFailed = await circuit.waitFor(() => failedAt.size >= BREAK_AFTER, `${BREAK_AFTER} failures at the circuit webhook`);
  if (!threeFailed.met) return { skipped: `the ${BREAK_AFTER} events that were to fail did not all arrive` };
  const thirdFailureAt = [...failedAt.values()][BREAK_AFTER - 1]!;
  const latency = Math.min(...circuit.deliveries().map((d) => d.receivedAt)) - raisedAt;
  await settle(latency);
  failing = failure.failedProbe === true;
  const fourth = await raise();
  const opened: Opened = {
    sink: circuit,
    hookId: hook.id,
    event: webhook.event,
    fourth: fourth.data,
    thirdFailureAt,
    fourthRaisedAt: Date.now(),
  };
  if (!failure.failedProbe) return opened;
  const probed = await circuit.waitFor(
    () => failedAt.size > BREAK_AFTER,
    'the fourth event, the probe',
    PAUSE_MS + ctx.options.eventTimeoutMs,
  );
  failing = false;
  if (!probed.met) return opened;
  await settle(latency);
  const fifth = await raise();
  return { ...opened, failedProbe: { failedAt: [...failedAt.values()][BREAK_AFTER]!, fifth: fifth.data, raisedAt: Date.now() } };
}

/** One circuit per event type and run, started by the instance's `prepare`. */
const circuits = new Map<string, ReturnType<typeof oncePerRun<[Check<Rule>, string, Failure], Outcome>>>();
function openCircuit(ctx: KitContext, check: Check<Rule>, event: string, failure: Failure): Promise<Outcome> {
  let open = circuits.get(event);
  if (!open) circuits.set(event, (open = oncePerRun(startCircuit)));
  return open(ctx, check, event, failure);
}

/** When the first retry (a delivery id seen before) was answered `2xx` at the receiver: the probe, as the kit saw it. */
export function probeAnsweredAt(deliveries: readonly Delivery[]): number | undefined {
  const seen = new Set<string>();
  for (const d of [...deliveries].sort((a, b) => a.receivedAt - b.receivedAt)) {
    const id = deliveryId(d);
    if (seen.has(id) && d.answered && d.answered.status < 300) return d.closedAt ?? d.receivedAt;
    seen.add(id);
  }
  return undefined;
}

/**
 * How early a new delivery's first attempt came (ms), when it came before a probe was answered and
 * before the pause (less its slack) had passed since the failure that set it; undefined otherwise.
 */
export function earlyBy(arrivedAt: number, failureAt: number, probeAt: number | undefined, pauseMs = PAUSE_MS): number | undefined {
  const allowedFrom = Math.min(probeAt ?? Number.POSITIVE_INFINITY, failureAt + pauseMs * (1 - PAUSE_SLACK));
  return arrivedAt < allowedFrom ? allowedFrom - arrivedAt : undefined;
}

async function circuitBreaker(
  ctx: KitContext,
  check: Check<Rule>,
  timing: RetryTiming,
  event: string,
  failure: Failure,
): Promise<{ note: string } | { skipped: string }> {
  const opened = await openCircuit(ctx, check, event, failure);
  if ('skipped' in opened) return opened;
  const webhooks = crudNamed(ctx, 'webhooks');
  const at = ctx.model.webhooks.find((w) => w.event === opened.event)?.label ?? opened.event;
  const since = (from: number, to: number | undefined, waitedMs: number) =>
    to === undefined ? `not within ${waitedMs} ms` : `${to - from} ms after it`;
  try {
    const arrival = (ids: Record<string, unknown>) => opened.sink.deliveries().find((d) => carries(parseBody(d)?.data, ids))?.receivedAt;
    const waited = await opened.sink.waitFor(
      () => arrival(opened.fourth) !== undefined,
      'the fourth event',
      ctx.options.eventTimeoutMs + PAUSE_MS,
    );
    const fourthAt = arrival(opened.fourth);
    const probeAt = probeAnsweredAt(opened.sink.deliveries());
    const notes = [
      `${BREAK_AFTER} ${opened.event} events ${failure.says}, a fourth raised ${opened.fourthRaisedAt - opened.thirdFailureAt} ms after the third failure; it came ${since(opened.thirdFailureAt, fourthAt, waited.waitedMs)}, the first retry answered ${probeAt === undefined ? 'never' : `${probeAt - opened.thirdFailureAt} ms after it`}`,
    ];
    const doubled = 2 * PAUSE_MS;
    let fifthAt: number | undefined;
    if (opened.failedProbe) {
      const { failedAt, fifth, raisedAt } = opened.failedProbe;
      const waitedFifth = await opened.sink.waitFor(
        () => arrival(fifth) !== undefined,
        'the fifth event',
        ctx.options.eventTimeoutMs + doubled,
      );
      fifthAt = arrival(fifth);
      notes.push(
        `the fourth failed too; a fifth raised ${raisedAt - failedAt} ms after that failure came ${since(failedAt, fifthAt, waitedFifth.waitedMs)}`,
      );
    }
    const note = notes.join('; ');
    if (timing.skip) return { note: `${note}; the pauses are not judged: ${timing.skip}` };
    const fail = (observed: string) => check.fail({ at, rule: 'slow-and-failing-receivers.4', observed, details: [note] });
    const early = fourthAt === undefined ? undefined : earlyBy(fourthAt, opened.thirdFailureAt, probeAt);
    if (early !== undefined)
      fail(
        `after ${BREAK_AFTER} failures in a row (${failure.says}), a new delivery came ${(early / 1000).toFixed(1)} s before a probe was answered or the ${PAUSE_MS / 1000} s pause had passed`,
      );
    if (fourthAt === undefined)
      fail(
        `after ${BREAK_AFTER} failures in a row (${failure.says}), a new delivery was still held ${((Date.now() - opened.fourthRaisedAt) / 1000).toFixed(1)} s after it was raised: no probe after the ${PAUSE_MS / 1000} s pause`,
      );
    if (opened.failedProbe) {
      const earlyFifth = fifthAt === undefined ? undefined : earlyBy(fifthAt, opened.failedProbe.failedAt, undefined, doubled);
      if (earlyFifth !== undefined)
        fail(
          `after a probe failed (${BREAK_AFTER + 1} failures in a row), the next new delivery came ${(earlyFifth / 1000).toFixed(1)} s before the pause, doubled to ${doubled / 1000} s, had passed`,
        );
      if (fifthAt === undefined)
        fail(
          `after a probe failed (${BREAK_AFTER + 1} failures in a row), the next new delivery was still held ${((Date.now() - opened.failedProbe.raisedAt) / 1000).toFixed(1)} s after it was raised: no probe after the ${doubled / 1000} s pause`,
        );
    }
    return { note };
  } finally {
    await ctx.send(webhooks.delete, { id: opened.hookId }).catch(() => undefined);
  }
}
