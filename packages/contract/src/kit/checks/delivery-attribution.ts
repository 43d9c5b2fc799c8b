// `delivery-attribution`: a scenario that gives the target every chance to misroute an event, then
// the verdict on every delivery the kit's webhooks got during the run (attribute.ts).
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { raiseEvent } from '../raise.ts';
import { attributeDeliveries } from './shared/attribute.ts';
import { documentedResources, labels } from './shared/documented.ts';
import { chosenIds } from './shared/event-run.ts';
import { bodyWith, crudNamed, distinct, parseBody, sink, subscribe } from './shared/rule-support.ts';

const RULES = ['webhooks.2', 'schema.WebhookCreate.2', 'test-support-not-part-of-the-v1-contract.4'] as const;
type Rule = (typeof RULES)[number];

export const deliveryAttributionCheck = defineCheck({
  name: 'delivery-attribution',
  column: 'routed',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: false,
  cost: { fixed: 9, perCase: 0 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found) return [];
    return [{ subjects: labels(found.hook('finding.created')), run: (ctx, check) => deliveryAttribution(ctx, check) }];
  },
});

/** The webhooks of the scenario below: `other` takes the test event's type too, but is not its target. */
const SCENARIO = { caused: 'finding.created', raised: 'scan.completed' } as const;

/**
 * `delivery-attribution`: gives the target every chance to misroute (a disabled webhook and one
 * subscribed only to the raised type beside the one that should get both events), causes a
 * finding.created and raises a scan.completed for that one webhook, waits for both to arrive
 * there, then judges every delivery the run's webhooks got so far.
 */
async function deliveryAttribution(ctx: KitContext, check: Check<Rule>): Promise<{ note: string }> {
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
    check.fail({
      at: subject,
      rule: 'webhooks.2',
      observed: `the finding.created of ${findingId} never reached the enabled, subscribed webhook ${control.id}`,
      details: [`the kit waited ${waited.waitedMs} ms`],
    });
  const receiver = await ctx.receiver();
  const attribution = attributeDeliveries(ctx, check, receiver.deliveries, webhooks.collectionPath);
  if (attribution.violations.length > 0) check.failAll({ at: subject, found: attribution.violations });
  return {
    note: `${attribution.judged} deliveries of the kit's events judged on its webhooks; ${attribution.foreign} of other clients' events left alone`,
  };
}
