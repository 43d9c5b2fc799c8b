// Delivery semantics as the document states them, judged with webhooks on paths of the kit's own
// receiver: only enabled webhooks subscribed to the type receive an event, one X-Service-Delivery per
// event and webhook, no earlier events for a webhook created later, finding.resolved on resolving
// only; a receiver that fails on purpose gets the retry with the same id and bytes, after the
// documented first wait (±20 %) or a longer Retry-After; a redirect is a failure and is not
// followed; `410 Gone` disables the webhook with `endpoint_gone`, and re-enabling clears it.
// Duplicates (at least once) and any order are allowed everywhere.
import { randomUUID } from 'node:crypto';
import type { KitContext } from '../context.ts';
import type { Delivery, Responder } from '../receiver.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { ContractViolation } from '../verify.ts';
import {
  bodyWith,
  breach,
  crudNamed,
  deliveryId,
  distinct,
  findingUpdate,
  type Json,
  newSecret,
  parseBody,
  type Sink,
  sink,
  subscribe,
} from './rule-support.ts';
import { idAndTimeViolations, timestampOf } from './signature-rules.ts';

/** After the expected deliveries came, how long the kit waits for ones that must not come. */
const GRACE_MS = 1000;
const MAX_EVENT_BYTES = 64 * 1024;

export interface RetryTiming {
  /** Why the first-retry and Retry-After waits are not judged (a target with a compressed schedule). */
  skip?: string;
}

/** The first retry's wait the document states ("retried after waits of about 5 s, ..."), in ms, and the jitter. */
export function firstRetry(ctx: KitContext): { ms: number; jitter: number } | undefined {
  const text = ctx.model.doc.info.description ?? '';
  const wait = /retried after waits of about (\d+) s/.exec(text);
  const jitter = /±(\d+) ?% jitter/.exec(text);
  return wait ? { ms: Number(wait[1]) * 1000, jitter: jitter ? Number(jitter[1]) / 100 : 0 } : undefined;
}

const about = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const label = (ctx: KitContext, event: string) => ctx.model.webhooks.find((w) => w.event === event)?.label ?? `webhook ${event}`;
const findingOf = (d: Delivery) => parseBody(d)?.data?.finding_id;

async function createFinding(ctx: KitContext, check: string, fields: Json = {}): Promise<{ id: string; json: Json }> {
  const findings = crudNamed(ctx, 'findings');
  const { id, exchange } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: null, ...fields }));
  return { id, json: exchange.json as Json };
}

/**
 * Answers the first attempt of each delivery of the kit's own finding (its title carries `token`)
 * with `failure`, everything else 204 (other events must not open the webhook's circuit); keeps
 * what it answered.
 */
function failFirst(token: string, failure: () => { status: number; headers?: Record<string, string> }): Responder & { answered: number[] } {
  const seen = new Set<string>();
  const answered: number[] = [];
  const responder: Responder = (delivery) => {
    const id = deliveryId(delivery);
    const mine = String(parseBody(delivery)?.data?.title ?? '').includes(token);
    const answer = seen.has(id) || !mine ? { status: 204 } : failure();
    seen.add(id);
    answered.push(answer.status);
    return answer;
  };
  return Object.assign(responder, { answered });
}

interface RetrySetup {
  failing: Sink & { answered: number[] };
  followed: Sink;
  redirecting: Sink;
  later: Sink | undefined;
  failingHook: { id: string };
  finding: { id: string };
  retryAfterSeconds: number;
}

const retrySetups = new WeakMap<KitContext, Promise<RetrySetup>>();

/**
 * The receivers that fail on purpose, their webhooks and the finding whose event they get: set up
 * once per run, as early as the plan allows (plan.ts `prepare`), so the retry waits overlap the
 * other checks.
 */
export function startRetryProbe(ctx: KitContext, check: string, timing: RetryTiming): Promise<RetrySetup> {
  let setup = retrySetups.get(ctx);
  if (!setup) {
    setup = (async () => {
      const schedule = firstRetry(ctx);
      const retryAfterSeconds = schedule ? Math.ceil((schedule.ms * (1 + schedule.jitter)) / 1000) + 2 : 8;
      const token = `kit-retry-${randomUUID()}`;
      const failFirst500 = failFirst(token, () => ({ status: 500 }));
      const failing = Object.assign(await sink(ctx, 'retry-500', failFirst500), { answered: failFirst500.answered });
      const followed = await sink(ctx, 'retry-followed');
      const redirecting = await sink(
        ctx,
        'retry-307',
        failFirst(token, () => ({ status: 307, headers: { Location: followed.url } })),
      );
      const later = timing.skip
        ? undefined
        : await sink(
            ctx,
            'retry-after',
            failFirst(token, () => ({ status: 503, headers: { 'Retry-After': String(retryAfterSeconds) } })),
          );
      const failingHook = await subscribe(ctx, check, failing.url, ['finding.created'], { secret: newSecret() });
      await subscribe(ctx, check, redirecting.url, ['finding.created']);
      if (later) await subscribe(ctx, check, later.url, ['finding.created']);
      const finding = await createFinding(ctx, check, { title: token });
      return { failing, followed, redirecting, later, failingHook, finding, retryAfterSeconds };
    })();
    // A failure surfaces when the check awaits it, not as an unhandled rejection before.
    setup.catch(() => undefined);
    retrySetups.set(ctx, setup);
  }
  return setup;
}

/** `delivery-semantics`: who receives what, once per event and webhook. */
export async function deliverySemantics(ctx: KitContext, check: string): Promise<'passed' | { note: string }> {
  const findings = crudNamed(ctx, 'findings');
  const created = label(ctx, 'finding.created');
  const resolvedLabel = label(ctx, 'finding.resolved');
  const [a, b, c, d, r] = await Promise.all(['a', 'b', 'c', 'd', 'r'].map((name) => sink(ctx, `semantics-${name}`)));
  await subscribe(ctx, check, a!.url, ['finding.created', 'finding.resolved']);
  await subscribe(ctx, check, b!.url, ['compliance.changed']);
  await subscribe(ctx, check, c!.url, ['finding.created'], { enabled: false });
  await subscribe(ctx, check, d!.url, ['finding.created']);
  await subscribe(ctx, check, r!.url, ['finding.resolved']);
  const f1 = await createFinding(ctx, check);
  const late = await sink(ctx, 'semantics-late');
  await subscribe(ctx, check, late.url, ['finding.created']);
  const f2 = await createFinding(ctx, check);
  const suppressed = await createFinding(ctx, check);
  const move = async (finding: { id: string; json: Json }, status: string, extra: Json = {}) =>
    ctx.expect(
      findings.update,
      check,
      await ctx.send(findings.update, { id: finding.id, body: findingUpdate(finding.json, status, extra) }),
      { statuses: [200] },
      `finding → ${status}`,
    );
  await move(suppressed, 'suppressed');
  const twice = await createFinding(ctx, check);
  await move(twice, 'resolved');
  await move(twice, 'open', { resolution: null });
  await move(twice, 'resolved');

  const of = (s: Sink, event: string, finding: string) => distinct(s.deliveries(), event).filter((x) => findingOf(x) === finding);
  const expected = () =>
    of(a!, 'finding.created', f1.id).length > 0 &&
    of(a!, 'finding.created', f2.id).length > 0 &&
    of(d!, 'finding.created', f1.id).length > 0 &&
    of(late, 'finding.created', f2.id).length > 0 &&
    of(r!, 'finding.resolved', twice.id).length >= 2;
  const waited = await a!.waitFor(expected, 'the expected deliveries');
  const grace = (await a!.waitFor(() => false, 'deliveries that must not come', GRACE_MS)).waitedMs;
  const waitedNote = `the kit waited ${waited.waitedMs} ms for the expected deliveries, then ${grace} ms for ones that must not come`;
  const fail = (subject: string, rule: RuleId, message: string) => breach(subject, check, rule, message, [waitedNote]);

  if (of(a!, 'finding.created', f1.id).length === 0 || of(d!, 'finding.created', f1.id).length === 0)
    fail(created, 'webhooks.2', 'an enabled webhook subscribed to finding.created did not receive it');
  if (of(late, 'finding.created', f2.id).length === 0)
    fail(created, 'webhooks.2', 'a webhook subscribed to finding.created did not receive one');
  if (distinct(b!.deliveries(), 'finding.created').length > 0)
    fail(created, 'webhooks.2', 'a webhook subscribed only to compliance.changed received finding.created');
  if (c!.deliveries().length > 0)
    fail(created, 'schema.WebhookCreate.2', `a disabled webhook received ${c!.deliveries().length} deliveries`);
  if (of(late, 'finding.created', f1.id).length > 0)
    fail(created, 'slow-and-failing-receivers.6', 'a webhook created after an event received that earlier event');
  if (of(r!, 'finding.resolved', suppressed.id).length + of(a!, 'finding.resolved', suppressed.id).length > 0)
    fail(resolvedLabel, 'findingResolved.2', 'suppressing a finding sent finding.resolved');
  const resolvedTwice = of(r!, 'finding.resolved', twice.id).length;
  if (resolvedTwice !== 2)
    fail(
      resolvedLabel,
      'findingResolved.3',
      `a finding resolved, reopened and resolved again sent ${resolvedTwice} finding.resolved (distinct X-Service-Delivery), not 2`,
    );

  // One id per event and webhook: never shared by two webhooks, nor by two events to one webhook.
  const owners = new Map<string, string>();
  for (const s of [a!, b!, c!, d!, r!, late]) {
    const byId = new Map<string, Buffer>();
    for (const delivery of s.deliveries()) {
      const id = deliveryId(delivery);
      const owner = owners.get(id);
      if (owner !== undefined && owner !== s.path) fail(created, 'delivery-headers.3', `X-Service-Delivery ${id} was sent to two webhooks`);
      owners.set(id, s.path);
      const body = byId.get(id);
      if (body && !body.equals(delivery.raw))
        fail(created, 'param.DeliveryHeader.1', `X-Service-Delivery ${id} came with two different bodies (two events share one id)`);
      byId.set(id, delivery.raw);
      if (delivery.raw.length > MAX_EVENT_BYTES)
        fail(created, 'slow-and-failing-receivers.8', `an event body of ${delivery.raw.length} bytes, over 64 KiB`);
    }
  }
  const [headerFault] = [a!, b!, c!, d!, r!, late].flatMap((s) => s.deliveries().flatMap(idAndTimeViolations));
  if (headerFault) throw new ContractViolation(created, check, [headerFault]);
  return { note: waitedNote };
}

/**
 * `delivery-retry`: receivers that fail the first attempt on purpose (500, a redirect, 503 with a
 * long Retry-After) get a retry with the same X-Service-Delivery and the same bytes, after the
 * documented wait; the redirect is not followed; a later 2xx shows in last_delivery.
 */
export async function deliveryRetry(ctx: KitContext, check: string, timing: RetryTiming): Promise<'passed' | { note: string }> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const subject = label(ctx, 'finding.created');
  const schedule = firstRetry(ctx);
  const { failing, followed, redirecting, later, failingHook, finding, retryAfterSeconds } = await startRetryProbe(ctx, check, timing);
  const mine = (s: Sink) => s.deliveries().filter((x) => findingOf(x) === finding.id);
  const timeout = Math.max(ctx.options.eventTimeoutMs, (later ? retryAfterSeconds * 1000 * 1.2 : 0) + 5000);
  const waited = await failing.waitFor(
    () => mine(failing).length >= 2 && mine(redirecting).length >= 2 && (!later || mine(later).length >= 2),
    'first attempts and their retries',
    timeout,
  );
  const note = `the kit waited ${waited.waitedMs} ms for the retries`;
  const [first, retry] = mine(failing);
  if (!first || !retry)
    breach(subject, check, 'delivery-and-retries.4', `a delivery answered 500 was ${first ? 'not retried' : 'never sent'}`, [note]);
  if (deliveryId(first) !== deliveryId(retry))
    breach(
      subject,
      check,
      'delivery-headers.3',
      `the retry came with X-Service-Delivery ${deliveryId(retry)}, the first attempt with ${deliveryId(first)}`,
      [note],
    );
  // A retry carries its own time: its webhook-timestamp moves on by about the wait (2 s of slack for rounding and the network).
  const [stamped, restamped] = [timestampOf(first), timestampOf(retry)];
  const moved = Math.floor((retry.receivedAt - first.receivedAt) / 1000) - 2;
  if (stamped !== undefined && restamped !== undefined && restamped - stamped < moved) {
    breach(
      subject,
      check,
      'param.StandardTimestampHeader.1',
      `the retry came ${about(retry.receivedAt - first.receivedAt)} after the first attempt with webhook-timestamp ${restamped}, the first attempt's was ${stamped}: a retry carries its own time`,
    );
  }
  const [headerFault] = [first, retry].flatMap(idAndTimeViolations);
  if (headerFault) throw new ContractViolation(subject, check, [headerFault]);
  if (!first.raw.equals(retry.raw))
    breach(subject, check, 'slow-and-failing-receivers.9', 'the retry body is not byte-identical to the first attempt', [
      first.raw.toString('utf8').slice(0, 300),
      retry.raw.toString('utf8').slice(0, 300),
    ]);
  const [redirected, redirectRetry] = mine(redirecting);
  if (!redirected || !redirectRetry)
    breach(
      subject,
      check,
      'delivery-and-retries.2',
      `a delivery answered 307 was ${redirected ? 'not retried (a 3xx is a failure)' : 'never sent'}`,
      [note],
    );
  if (followed.deliveries().length > 0)
    breach(subject, check, 'schema.WebhookUrl.3', 'the service followed a redirect to the Location the receiver named', [note]);

  const notes = [note];
  if (!timing.skip && schedule) {
    const gap = retry.receivedAt - first.receivedAt;
    const [low, high] = [schedule.ms * (1 - schedule.jitter), schedule.ms * (1 + schedule.jitter) + 1000];
    if (gap < low || gap > high)
      breach(
        subject,
        check,
        'delivery-and-retries.4',
        `the first retry came ${about(gap)} after the first attempt; the document says about ${about(schedule.ms)} ±${schedule.jitter * 100} % (the kit allows ${about(low)} to ${about(high)})`,
      );
    notes.push(`first retry after ${about(gap)}`);
    const [held, heldRetry] = later ? mine(later) : [];
    if (!held || !heldRetry)
      breach(
        subject,
        check,
        'delivery-and-retries.4',
        `a delivery answered 503 with Retry-After: ${retryAfterSeconds} was not retried within ${about(timeout)}`,
        [note],
      );
    const heldGap = heldRetry.receivedAt - held.receivedAt;
    if (heldGap < retryAfterSeconds * 1000 - 250)
      breach(
        subject,
        check,
        'delivery-and-retries.4',
        `a receiver asked for Retry-After: ${retryAfterSeconds} (longer than the first wait) and the retry came after ${about(heldGap)}`,
      );
    notes.push(`retry after Retry-After: ${retryAfterSeconds} came after ${about(heldGap)}`);
  } else if (timing.skip) {
    notes.push(`waits not judged: ${timing.skip}`);
  }
  // last_delivery is the most recent attempt, which other events may have made since: it must say
  // succeeded exactly for a 2xx, and show a 2xx once the receiver's latest answer was one.
  let last: Json | undefined;
  for (let i = 0; i < 30; i++) {
    last = ((await ctx.send(webhooks.read, { id: failingHook.id })).json as Json).last_delivery as Json | undefined;
    const code = Number(last?.status_code);
    if (last && last.succeeded !== (code >= 200 && code < 300))
      breach(
        webhooks.read.label,
        check,
        'schema.LastDelivery.3',
        `last_delivery is ${JSON.stringify(last)}: succeeded must be true exactly for a 2xx`,
      );
    if (last?.succeeded === true && failing.answered.at(-1) === code) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (last?.succeeded !== true)
    breach(
      webhooks.read.label,
      check,
      'schema.LastDelivery.3',
      `after retries answered 204, last_delivery still reads ${JSON.stringify(last)} (polled 3 s)`,
    );
  return { note: notes.join('; ') };
}

/** `endpoint-gone`: a 410 disables the webhook at once with endpoint_gone; nothing more is sent; re-enabling clears the reason. */
export async function endpointGone(ctx: KitContext, check: string): Promise<'passed' | { note: string }> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const subject = label(ctx, 'finding.created');
  const gone = await sink(ctx, 'gone', () => ({ status: 410 }));
  const hook = await subscribe(ctx, check, gone.url, ['finding.created']);
  await createFinding(ctx, check);
  const waited = await gone.waitFor((ds) => ds.length > 0, 'the delivery to answer 410');
  if (!waited.met)
    breach(subject, check, 'webhooks.2', 'the webhook to answer 410 received nothing', [`the kit waited ${waited.waitedMs} ms`]);
  const [headerFault] = gone.deliveries().flatMap(idAndTimeViolations);
  if (headerFault) throw new ContractViolation(subject, check, [headerFault]);
  let read: Json = {};
  const started = Date.now();
  while (Date.now() - started < ctx.options.eventTimeoutMs) {
    read = (await ctx.send(webhooks.read, { id: hook.id })).json as Json;
    if (read.enabled === false) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const after = `${Date.now() - started} ms after the 410`;
  if (read.enabled !== false || read.disabled_reason !== 'endpoint_gone') {
    breach(
      webhooks.read.label,
      check,
      'delivery-and-retries.3',
      `${after} the webhook reads enabled ${String(read.enabled)}, disabled_reason ${JSON.stringify(read.disabled_reason)}; expected false and endpoint_gone`,
    );
  }
  const last = read.last_delivery as Json | null;
  if (last?.status_code !== 410 || last.succeeded !== false)
    breach(webhooks.read.label, check, 'schema.LastDelivery.2', `after a 410, last_delivery is ${JSON.stringify(last)}`);
  const ids = new Set(gone.deliveries().map(deliveryId));
  await createFinding(ctx, check);
  await gone.waitFor(() => false, 'deliveries that must not come', GRACE_MS);
  const more = gone.deliveries().filter((x) => !ids.has(deliveryId(x)));
  if (more.length > 0)
    breach(subject, check, 'response.ReceiverGone.1', `a webhook disabled by a 410 received ${more.length} more deliveries`);
  const reenabled = await ctx.send(webhooks.update, { id: hook.id, body: { url: read.url, events: read.events, enabled: true } });
  ctx.expect(webhooks.update, check, reenabled, { statuses: [200] }, 're-enabling the webhook');
  const json = reenabled.json as Json;
  if (json.enabled !== true || json.disabled_reason !== null)
    breach(
      webhooks.update.label,
      check,
      'updateWebhook.2',
      `re-enabled, the webhook reads enabled ${String(json.enabled)}, disabled_reason ${JSON.stringify(json.disabled_reason)}`,
      [],
      reenabled,
    );
  // A re-enabled webhook gets nothing more from the 410 path: point it nowhere it would answer 410 again.
  await ctx.send(webhooks.delete, { id: hook.id });
  return { note: `disabled ${after}` };
}
