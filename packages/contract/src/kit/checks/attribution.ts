// `delivery-attribution`: a scenario that gives the target every chance to misroute an event, then
// the verdict on every delivery the kit's webhooks got during the run (attribute.ts).
import type { KitContext } from '../context.ts';
import { raiseEvent } from '../raise.ts';
import { ContractViolation } from '../verify.ts';
import { attributeDeliveries } from './attribute.ts';
import { chosenIds } from './event-run.ts';
import { bodyWith, breach, crudNamed, distinct, parseBody, sink, subscribe } from './rule-support.ts';

/** The webhooks of the scenario below: `other` takes the test event's type too, but is not its target. */
const SCENARIO = { caused: 'finding.created', raised: 'scan.completed' } as const;

/**
 * `delivery-attribution`: gives the target every chance to misroute (a disabled webhook and one
 * subscribed only to the raised type beside the one that should get both events), causes a
 * finding.created and raises a scan.completed for that one webhook, waits for both to arrive
 * there, then judges every delivery the run's webhooks got so far.
 */
export async function deliveryAttribution(ctx: KitContext, check: string): Promise<{ note: string }> {
  const [webhooks, findings] = [crudNamed(ctx, 'webhooks'), crudNamed(ctx, 'findings')];
  const subject = ctx.model.webhooks.find((w) => w.event === SCENARIO.caused)?.label ?? `webhook ${SCENARIO.caused}`;
  const target = await sink(ctx, 'attribution');
  const both = [SCENARIO.caused, SCENARIO.raised];
  const control = await subscribe(ctx, check, `${target.url}/control`, both);
  await subscribe(ctx, check, `${target.url}/disabled`, both, { enabled: false });
  await subscribe(ctx, check, `${target.url}/other`, [SCENARIO.raised]);
  const { id: findingId } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: null }));
  // A trigger command cannot address one webhook: only the simulator raises a targeted event.
  const raisable = ctx.model.webhooks.find((w) => w.event === SCENARIO.raised && !ctx.options.eventsOutOfScope.includes(w.event));
  const raised =
    raisable && !ctx.options.triggerCommand
      ? await raiseEvent(ctx, { event: SCENARIO.raised, webhookId: control.id, data: chosenIds(ctx, raisable) })
      : undefined;
  const expected = raised && 'raised' in raised ? 2 : 1;
  const atControl = () => distinct(target.deliveries().filter((d) => d.path === `${target.path}/control`));
  const waited = await target.waitFor(() => atControl().length >= expected, `${expected} deliveries at the control webhook`);
  if (!atControl().some((d) => parseBody(d)?.data?.finding_id === findingId))
    breach(
      subject,
      check,
      'webhooks.2',
      `the finding.created of ${findingId} never reached the enabled, subscribed webhook ${control.id}`,
      [`the kit waited ${waited.waitedMs} ms`],
    );
  const receiver = await ctx.receiver();
  const attribution = attributeDeliveries(ctx, receiver.deliveries, webhooks.collectionPath);
  if (attribution.violations.length > 0) throw new ContractViolation(subject, check, attribution.violations);
  return {
    note: `${attribution.judged} deliveries of the kit's events judged on its webhooks; ${attribution.foreign} of other clients' events left alone`,
  };
}
