// Delivery semantics as the document states them, judged with webhooks on paths of the kit's own
// receiver: only enabled webhooks subscribed to the type receive an event, one X-Service-Delivery per
// event and webhook, no earlier events for a webhook created later, finding.resolved on resolving
// only; `410 Gone` disables the webhook with `endpoint_gone`, and re-enabling clears it. Duplicates
// (at least once) and any order are allowed everywhere.
import type { KitContext } from '../context.ts';
import type { Delivery } from '../receiver.ts';
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
  parseBody,
  ruleViolation,
  type Sink,
  sink,
  subscribe,
} from './rule-support.ts';
import { idAndTimeViolations } from './signature-rules.ts';

/** After the expected deliveries came, how long the kit waits for ones that must not come. */
const GRACE_MS = 1000;
const MAX_EVENT_BYTES = 64 * 1024;

export const label = (ctx: KitContext, event: string) => ctx.model.webhooks.find((w) => w.event === event)?.label ?? `webhook ${event}`;
export const findingOf = (d: Delivery) => parseBody(d)?.data?.finding_id;

export async function createFinding(ctx: KitContext, check: string, fields: Json = {}): Promise<{ id: string; json: Json }> {
  const findings = crudNamed(ctx, 'findings');
  const { id, exchange } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: null, ...fields }));
  return { id, json: exchange.json as Json };
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
  if (resolvedTwice === 0) fail(resolvedLabel, 'schema.FindingResolvedEvent.1', 'resolving a finding sent no finding.resolved');
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
    // Disabled but without its reason, or with another reason: what disabled_reason says breaks.
    const rule =
      read.enabled !== false ? 'delivery-and-retries.3' : read.disabled_reason === null ? 'schema.Webhook.4' : 'schema.Webhook.5';
    breach(
      webhooks.read.label,
      check,
      rule,
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
  if (json.enabled !== true || json.disabled_reason !== null) {
    const message = `re-enabled, the webhook reads enabled ${String(json.enabled)}, disabled_reason ${JSON.stringify(json.disabled_reason)}`;
    // The operation and the update schema state it alike.
    const stated = (['updateWebhook.2', 'schema.WebhookUpdate.3'] as const).map((rule) => ruleViolation(rule, message));
    throw new ContractViolation(webhooks.update.label, check, stated, reenabled);
  }
  // A re-enabled webhook gets nothing more from the 410 path: point it nowhere it would answer 410 again.
  await ctx.send(webhooks.delete, { id: hook.id });
  return { note: `disabled ${after}` };
}
