// `delivery-semantics`: who receives what, once per event and webhook.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { documentedResources, labels } from './shared/documented.ts';
import { createFinding, findingOf, GRACE_MS, label } from './shared/finding-events.ts';
import { crudNamed, deliveryId, distinct, findingUpdate, type Json, type Sink, sink, subscribe } from './shared/rule-support.ts';
import { idAndTimeViolations } from './shared/signatures.ts';

const RULES = [
  'webhooks.2',
  'delivery-headers.3',
  'slow-and-failing-receivers.6',
  'slow-and-failing-receivers.8',
  'delivery-headers.6',
  'delivery-headers.7',
  'findingResolved.1',
  'findingResolved.2',
  'findingResolved.3',
  'schema.FindingResolvedEvent.1',
  'schema.WebhookCreate.2',
  'param.DeliveryHeader.1',
  'param.StandardIdHeader.1',
  'param.StandardTimestampHeader.1',
] as const;
type Rule = (typeof RULES)[number];

export const deliverySemanticsCheck = defineCheck({
  name: 'delivery-semantics',
  column: 'fanout',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 24, perCase: 0 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found) return [];
    return [
      {
        subjects: labels(found.hook('finding.created'), found.hook('finding.resolved')),
        run: (ctx, check) => deliverySemantics(ctx, check),
      },
    ];
  },
});

const MAX_EVENT_BYTES = 64 * 1024;

async function deliverySemantics(ctx: KitContext, check: Check<Rule>): Promise<'passed' | { note: string }> {
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
    check.conform(
      findings.update,
      await ctx.send(findings.update, { id: finding.id, body: findingUpdate(finding.json, status, extra) }),
      { statuses: [200] },
      `finding → ${status}`,
    );
  await move(suppressed, 'suppressed');
  const twice = await createFinding(ctx, check);
  await move(twice, 'resolved');
  await move(twice, 'open', { resolution: null });
  await move(twice, 'resolved');
  // Resolved, then updated with its status left resolved: it entered resolved once.
  const kept = await createFinding(ctx, check);
  await move(kept, 'resolved');
  await move(kept, 'resolved', { title: 'kit: edited while resolved' });

  const of = (s: Sink, event: string, finding: string) => distinct(s.deliveries(), event).filter((x) => findingOf(x) === finding);
  const expected = () =>
    of(a!, 'finding.created', f1.id).length > 0 &&
    of(a!, 'finding.created', f2.id).length > 0 &&
    of(d!, 'finding.created', f1.id).length > 0 &&
    of(late, 'finding.created', f2.id).length > 0 &&
    of(r!, 'finding.resolved', twice.id).length >= 2 &&
    of(r!, 'finding.resolved', kept.id).length >= 1;
  const waited = await a!.waitFor(expected, 'the expected deliveries');
  const grace = (await a!.waitFor(() => false, 'deliveries that must not come', GRACE_MS)).waitedMs;
  const paced =
    waited.pacedMs > 0
      ? ` (${waited.pacedMs} ms past --event-timeout, as the target was still sending first attempts of other deliveries)`
      : '';
  const waitedNote = `the kit waited ${waited.waitedMs} ms for the expected deliveries${paced}, then ${grace} ms for ones that must not come`;

  if (of(a!, 'finding.created', f1.id).length === 0 || of(d!, 'finding.created', f1.id).length === 0)
    check.fail({
      at: created,
      rule: 'webhooks.2',
      observed: 'an enabled webhook subscribed to finding.created did not receive it',
      details: [waitedNote],
    });
  if (of(late, 'finding.created', f2.id).length === 0)
    check.fail({
      at: created,
      rule: 'webhooks.2',
      observed: 'a webhook subscribed to finding.created did not receive one',
      details: [waitedNote],
    });
  if (distinct(b!.deliveries(), 'finding.created').length > 0)
    check.fail({
      at: created,
      rule: 'webhooks.2',
      observed: 'a webhook subscribed only to compliance.changed received finding.created',
      details: [waitedNote],
    });
  if (c!.deliveries().length > 0)
    check.fail({
      at: created,
      rule: 'schema.WebhookCreate.2',
      observed: `a disabled webhook received ${c!.deliveries().length} deliveries`,
      details: [waitedNote],
    });
  if (of(late, 'finding.created', f1.id).length > 0)
    check.fail({
      at: created,
      rule: 'slow-and-failing-receivers.6',
      observed: 'a webhook created after an event received that earlier event',
      details: [waitedNote],
    });
  if (of(r!, 'finding.resolved', suppressed.id).length + of(a!, 'finding.resolved', suppressed.id).length > 0)
    check.fail({
      at: resolvedLabel,
      rule: 'findingResolved.2',
      observed: 'suppressing a finding sent finding.resolved',
      details: [waitedNote],
    });
  const resolvedTwice = of(r!, 'finding.resolved', twice.id).length;
  if (resolvedTwice === 0)
    check.fail({
      at: resolvedLabel,
      rule: 'schema.FindingResolvedEvent.1',
      observed: 'resolving a finding sent no finding.resolved',
      details: [waitedNote],
    });
  if (resolvedTwice !== 2)
    check.fail({
      at: resolvedLabel,
      rule: 'findingResolved.3',
      observed: `a finding resolved, reopened and resolved again sent ${resolvedTwice} finding.resolved (distinct X-Service-Delivery), not 2`,
      details: [waitedNote],
    });
  const resolvedKept = of(r!, 'finding.resolved', kept.id).length;
  if (resolvedKept > 1)
    check.fail({
      at: resolvedLabel,
      rule: 'findingResolved.1',
      observed: `a finding resolved, then updated with its status left resolved, sent ${resolvedKept} finding.resolved (distinct X-Service-Delivery), not 1`,
      details: [waitedNote],
    });

  // One id per event and webhook: never shared by two webhooks, nor by two events to one webhook.
  const owners = new Map<string, string>();
  for (const s of [a!, b!, c!, d!, r!, late]) {
    const byId = new Map<string, Buffer>();
    for (const delivery of s.deliveries()) {
      const id = deliveryId(delivery);
      const owner = owners.get(id);
      if (owner !== undefined && owner !== s.path)
        check.fail({
          at: created,
          rule: 'delivery-headers.3',
          observed: `X-Service-Delivery ${id} was sent to two webhooks`,
          details: [waitedNote],
        });
      owners.set(id, s.path);
      const body = byId.get(id);
      if (body && !body.equals(delivery.raw))
        check.fail({
          at: created,
          rule: 'param.DeliveryHeader.1',
          observed: `X-Service-Delivery ${id} came with two different bodies (two events share one id)`,
          details: [waitedNote],
        });
      byId.set(id, delivery.raw);
      if (delivery.raw.length > MAX_EVENT_BYTES)
        check.fail({
          at: created,
          rule: 'slow-and-failing-receivers.8',
          observed: `an event body of ${delivery.raw.length} bytes, over 64 KiB`,
          details: [waitedNote],
        });
    }
  }
  const [headerFault] = [a!, b!, c!, d!, r!, late].flatMap((s) =>
    s.deliveries().flatMap((delivery) => idAndTimeViolations(check, delivery)),
  );
  if (headerFault) check.failAll({ at: created, found: [headerFault] });
  return { note: waitedNote };
}
