// Each receiver answer at the first attempt and at a retry: webhooks of the kit whose receivers
// answer the first attempt of one event with a failure (429, a 503 whose Retry-After is shorter
// than the schedule, a 500, no answer in time, a reset connection) and its retry with another (a
// redirect, 410, 400, 429, 502, 503 with a short Retry-After, 500 with a long one, no answer in
// time, a reset connection). A failed first attempt is retried with the same delivery id (not
// sooner than the schedule when Retry-After asks for less), a redirect is not followed, and the
// webhook then says how the retry ended: disabled with endpoint_gone after a 410, otherwise still
// enabled with last_delivery the retry's status (null when no answer came), succeeded only for a
// 2xx in time. Where the target has the test-support route, each webhook's event is raised for it
// alone (a type no operation causes), so no other check's event reaches it after the retry and
// last_delivery is the retry's; otherwise one finding is created for all of them, and a webhook that
// other findings reached after its retry is not judged on last_delivery.

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TIME_LIMIT_MS } from '../axes/answers.ts';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { isRaisable, raiseEvent } from '../raise.ts';
import type { Answer, Delivery } from '../receiver.ts';
import type { WebhookModel } from '../spec.ts';
import { documentedResources, labels } from './shared/documented.ts';
import { chosenIds } from './shared/event-run.ts';
import { createFinding, label } from './shared/finding-events.ts';
import { oncePerRun } from './shared/once-per-run.ts';
import { firstRetry, type RetryTiming } from './shared/retry-schedule.ts';
import { crudNamed, deliveryId, type Json, parseBody, type Sink, sink, subscribe } from './shared/rule-support.ts';

const RULES = [
  'delivery-and-retries.1',
  'delivery-and-retries.2',
  'delivery-and-retries.3',
  'delivery-and-retries.4',
  'schema.LastDelivery.2',
  'schema.LastDelivery.3',
] as const;
type Rule = (typeof RULES)[number];

export const receiverAnswersCheck = defineCheck({
  name: 'receiver-answers',
  column: 'answers',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: false,
  cost: { fixed: 40, perCase: 0 },
  instances: (model, options) => {
    const found = documentedResources(model);
    if (!found?.hook('finding.created')) return [];
    const timing = options.skipRetryTiming ? { skip: options.skipRetryTiming } : {};
    return [
      {
        subjects: labels(found.hook('finding.created')),
        run: (ctx, check) => receiverAnswers(ctx, check, timing),
        prepare: (ctx, check) => void startReceiverAnswers(ctx, check),
      },
    ];
  },
});

const EVENT = 'finding.created';
const POLL_MS = 500;
const TOO_LATE: Answer = { status: 204, delayMs: TIME_LIMIT_MS + 1_500 };
const RESET: Answer = { status: 204, reset: true };
/** The pairs of answers, first attempt then retry, that reach every cell of both. */
const PLANS: { name: string; first: Answer; retry: Answer | 'redirect' }[] = [
  { name: '429 then a redirect', first: { status: 429 }, retry: 'redirect' },
  { name: 'a short Retry-After then 410', first: { status: 503, headers: { 'retry-after': '1' } }, retry: { status: 410 } },
  { name: '500 then 400', first: { status: 500 }, retry: { status: 400 } },
  { name: '500 then 429', first: { status: 500 }, retry: { status: 429 } },
  { name: '500 then 502', first: { status: 500 }, retry: { status: 502 } },
  { name: '500 then a short Retry-After', first: { status: 500 }, retry: { status: 503, headers: { 'retry-after': '1' } } },
  { name: '500 then a long Retry-After', first: { status: 500 }, retry: { status: 500, headers: { 'retry-after': '3600' } } },
  { name: 'no answer in time then 204', first: TOO_LATE, retry: { status: 204 } },
  { name: '500 then no answer in time', first: { status: 500 }, retry: TOO_LATE },
  { name: 'a reset connection then 204', first: RESET, retry: { status: 204 } },
  { name: '500 then a reset connection', first: { status: 500 }, retry: RESET },
];

interface Prepared {
  /** The event the webhooks are subscribed to, and which of their deliveries carry the kit's own. */
  event: string;
  mine: (delivery: Delivery) => boolean;
  hooks: { plan: (typeof PLANS)[number]; sink: Sink; id: string }[];
}

const forToken = (token: string) => (d: Delivery) => JSON.stringify(parseBody(d)?.data ?? {}).includes(token);

/** Set up once per run, before the first check (the check's `prepare`), so the retries' waits overlap the run. */
const startReceiverAnswers = oncePerRun(async (ctx: KitContext, check: Check<Rule>): Promise<Prepared> => {
  const raisable = ctx.options.triggerCommand
    ? undefined
    : ctx.model.webhooks.find((w) => isRaisable(w.event) && !ctx.options.eventsOutOfScope.includes(w.event));
  return (raisable && (await prepareRaised(ctx, check, raisable))) || prepareWithFinding(ctx, check);
});

/** Subscribes a webhook per plan to `event`; `mine` tells the deliveries its plan answers. */
async function subscribeHooks(ctx: KitContext, check: Check<Rule>, event: string, mine: (d: Delivery) => boolean) {
  return Promise.all(
    PLANS.map(async (plan, index) => {
      const attempts = new Map<string, number>();
      let url = '';
      const made = await sink(ctx, `answers-${index}`, (delivery) => {
        if (!mine(delivery)) return { status: 204 };
        const attempt = (attempts.get(deliveryId(delivery)) ?? 0) + 1;
        attempts.set(deliveryId(delivery), attempt);
        if (attempt === 1) return plan.first;
        return plan.retry === 'redirect'
          ? { status: 307, headers: { location: `${url}/moved` } }
          : attempt === 2
            ? plan.retry
            : { status: 204 };
      });
      url = made.url;
      const { id } = await subscribe(ctx, check, made.url, [event]);
      return { plan, sink: made, id };
    }),
  );
}

/** One event raised for each webhook alone; undefined (the webhooks deleted) when the target cannot raise it. */
async function prepareRaised(ctx: KitContext, check: Check<Rule>, webhook: WebhookModel): Promise<Prepared | undefined> {
  const mine = () => true;
  const hooks = await subscribeHooks(ctx, check, webhook.event, mine);
  const outcomes = await Promise.all(
    hooks.map(({ id }) => raiseEvent(ctx, { event: webhook.event, webhookId: id, data: chosenIds(ctx, webhook) })),
  );
  if (outcomes.every((outcome) => !('cannot' in outcome) && !('refused' in outcome))) return { event: webhook.event, mine, hooks };
  const webhooks = crudNamed(ctx, 'webhooks');
  await Promise.all(hooks.map(({ id }) => ctx.send(webhooks.delete, { id }).catch(() => undefined)));
  return undefined;
}

/** One finding, whose finding.created every webhook gets (with every other finding of the run). */
async function prepareWithFinding(ctx: KitContext, check: Check<Rule>): Promise<Prepared> {
  const token = `kit-answers-${randomUUID().slice(0, 8)}`;
  const mine = forToken(token);
  const hooks = await subscribeHooks(ctx, check, EVENT, mine);
  await createFinding(ctx, check, { title: token });
  return { event: EVENT, mine, hooks };
}

async function receiverAnswers(ctx: KitContext, check: Check<Rule>, timing: RetryTiming): Promise<{ note: string }> {
  const { event, mine, hooks } = await startReceiverAnswers(ctx, check);
  const webhooks = crudNamed(ctx, 'webhooks');
  const subject = label(ctx, event);
  const schedule = firstRetry(ctx);
  const earliest = schedule && !timing.skip ? schedule.ms * (1 - schedule.jitter) : 0;
  const waitMs = (schedule?.ms ?? 5_000) * (1 + (schedule?.jitter ?? 0)) + 2 * TIME_LIMIT_MS + ctx.options.eventTimeoutMs;
  const unjudged: string[] = [];
  try {
    await Promise.all(
      hooks.map(async ({ plan, sink: path, id }) => {
        const got = await path.waitFor((ds) => ds.filter(mine).length >= 2, `the retry after ${plan.name}`, waitMs);
        const [first, retry] = path.deliveries().filter(mine);
        if (!got.met || !first || !retry)
          check.fail({
            at: subject,
            rule: 'delivery-and-retries.4',
            observed: `${plan.name}: the failed first attempt was not retried within ${Math.round(got.waitedMs / 1000)} s`,
          });
        if (deliveryId(first) !== deliveryId(retry) || !first.raw.equals(retry.raw))
          check.fail({
            at: subject,
            rule: 'delivery-and-retries.4',
            observed: `${plan.name}: the retry is not the same delivery (id ${deliveryId(first)} → ${deliveryId(retry)})`,
          });
        const after = retry.receivedAt - first.receivedAt - (first.answered?.delayMs ?? 0);
        if (first.answered?.headers?.['retry-after'] && after < earliest)
          check.fail({
            at: subject,
            rule: 'delivery-and-retries.4',
            observed: `${plan.name}: the retry came ${(after / 1000).toFixed(1)} s after the first attempt, sooner than the schedule's ${(earliest / 1000).toFixed(1)} s although Retry-After asked for less`,
          });
        // A retry that failed may be retried again before the webhook is read (a compressed schedule):
        // last_delivery is then that later attempt's.
        const attempts = () =>
          path.deliveries().filter((d) => mine(d) && deliveryId(d) === deliveryId(first) && !d.path.endsWith('/moved'));
        const others = () => path.deliveries().filter((d) => !mine(d) && d.receivedAt >= retry.receivedAt - 1_000);
        if (!(await judgeOutcome(ctx, check, webhooks, id, plan, attempts, others))) unjudged.push(plan.name);
        if (path.deliveries().some((d) => d.path.endsWith('/moved')))
          check.fail({ at: subject, rule: 'delivery-and-retries.2', observed: `${plan.name}: the service followed the redirect` });
      }),
    );
  } finally {
    await Promise.all(hooks.map(({ id }) => ctx.send(webhooks.delete, { id }).catch(() => undefined)));
  }
  const how =
    event === EVENT
      ? `one ${EVENT} for all ${hooks.length} webhooks`
      : `one ${event} raised for each of the ${hooks.length} webhooks alone`;
  return {
    note: `${how}; ${unjudged.length === 0 ? 'last_delivery judged on each' : `last_delivery not judged where other events came after the retry: ${unjudged.join(', ')}`}`,
  };
}

/** What the webhook must report after an attempt the receiver answered so. */
function outcomeOf(answered: Answer) {
  const timedOut = (answered.delayMs ?? 0) >= TIME_LIMIT_MS;
  const noAnswer = timedOut || answered.reset === true;
  return {
    timedOut,
    gone: !noAnswer && answered.status === 410,
    status: noAnswer ? null : answered.status,
    succeeded: !noAnswer && answered.status >= 200 && answered.status < 300,
    says: timedOut ? 'not in time' : answered.reset ? 'with a reset connection' : String(answered.status),
  };
}

/**
 * The webhook, polled until it reports the outcome of the delivery's latest attempt (the retry, or
 * one after it): what the document says that outcome is. False when other events reached the
 * webhook after the retry, so last_delivery could not be judged.
 */
async function judgeOutcome(
  ctx: KitContext,
  check: Check<Rule>,
  webhooks: ReturnType<typeof crudNamed>,
  id: string,
  plan: (typeof PLANS)[number],
  attempts: () => Delivery[],
  others: () => Delivery[],
): Promise<boolean> {
  const latest = () => {
    const all = attempts();
    return { n: all.length, ...outcomeOf(all.at(-1)!.answered!) };
  };
  const settled = (json: Json) => {
    const expected = latest();
    return expected.gone ? json.disabled_reason === 'endpoint_gone' : (json.last_delivery as Json | null)?.status_code === expected.status;
  };
  const deadline = Date.now() + (latest().timedOut ? TIME_LIMIT_MS : 0) + ctx.options.eventTimeoutMs;
  let json: Json = {};
  while (Date.now() < deadline) {
    json = (await ctx.send(webhooks.read, { id, auth: 'api' })).json as Json;
    // Other events of the run may reach the webhook too: once one has, it may be the last one reported.
    if (settled(json) || others().length > 0) break;
    await sleep(POLL_MS);
  }
  const { n, gone, status, succeeded, timedOut, says } = latest();
  const which = n === 2 ? 'the retry' : `attempt ${n}`;
  const last = json.last_delivery as Json | null;
  const what = `${plan.name}: the webhook reads enabled ${String(json.enabled)}, disabled_reason ${JSON.stringify(json.disabled_reason)}, last_delivery ${JSON.stringify(last)}`;
  if (gone && (json.enabled !== false || json.disabled_reason !== 'endpoint_gone'))
    check.fail({ at: webhooks.read, rule: 'delivery-and-retries.3', observed: what });
  if (!gone && json.enabled !== true)
    check.fail({
      at: webhooks.read,
      rule: 'delivery-and-retries.4',
      observed: `${what}: a failed attempt and its retries must not disable it`,
    });
  if (others().length > 0) return false;
  if (last?.status_code !== (gone ? 410 : status))
    check.fail({
      at: webhooks.read,
      rule: 'schema.LastDelivery.2',
      observed: `${what}; ${which} was answered ${says}`,
    });
  if (last.succeeded !== succeeded)
    check.fail({
      at: webhooks.read,
      rule: timedOut ? 'delivery-and-retries.1' : 'schema.LastDelivery.3',
      observed: `${what}: ${which} ${succeeded ? 'succeeded' : 'failed'}`,
    });
  return true;
}
