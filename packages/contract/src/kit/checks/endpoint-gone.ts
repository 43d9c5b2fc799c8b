// `endpoint-gone`: a 410 disables the webhook at once with endpoint_gone; nothing more is sent;
// re-enabling clears the reason.
import { setTimeout as sleep } from 'node:timers/promises';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { labels, withResources } from './shared/documented.ts';
import { createFinding, GRACE_MS, label } from './shared/finding-events.ts';
import { crudNamed, deliveryId, type Json, sink, subscribe } from './shared/rule-support.ts';
import { idAndTimeViolations } from './shared/signatures.ts';

const RULES = [
  'delivery-and-retries.3',
  'delivery-headers.6',
  'delivery-headers.7',
  'updateWebhook.2',
  'schema.LastDelivery.2',
  'schema.Webhook.4',
  'schema.Webhook.5',
  'schema.WebhookUpdate.3',
  'response.ReceiverGone.1',
  'param.StandardIdHeader.1',
  'param.StandardTimestampHeader.1',
  'webhooks.2',
] as const;
type Rule = (typeof RULES)[number];

export const endpointGoneCheck = defineCheck({
  name: 'endpoint-gone',
  column: '410',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 7, perCase: 0 },
  instances: (model) =>
    withResources(model, (found) => ({
      subjects: labels(found.hook('finding.created'), found.webhooks.update.label),
      run: (ctx, check) => endpointGone(ctx, check),
    })),
});

async function endpointGone(ctx: KitContext, check: Check<Rule>): Promise<'passed' | { note: string }> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const subject = label(ctx, 'finding.created');
  const gone = await sink(ctx, 'gone', () => ({ status: 410 }));
  const hook = await subscribe(ctx, check, gone.url, ['finding.created']);
  await createFinding(ctx, check);
  const waited = await gone.waitFor((ds) => ds.length > 0, 'the delivery to answer 410');
  if (!waited.met)
    check.fail({
      at: subject,
      rule: 'webhooks.2',
      observed: 'the webhook to answer 410 received nothing',
      details: [`the kit waited ${waited.waitedMs} ms`],
    });
  const [headerFault] = gone.deliveries().flatMap((delivery) => idAndTimeViolations(check, delivery));
  if (headerFault) check.failAll({ at: subject, found: [headerFault] });
  let read: Json = {};
  const started = Date.now();
  while (Date.now() - started < ctx.options.eventTimeoutMs) {
    read = (await ctx.send(webhooks.read, { id: hook.id })).json as Json;
    if (read.enabled === false) break;
    await sleep(100);
  }
  const after = `${Date.now() - started} ms after the 410`;
  if (read.enabled !== false || read.disabled_reason !== 'endpoint_gone') {
    // Disabled but without its reason, or with another reason: what disabled_reason says breaks.
    const rule =
      read.enabled !== false ? 'delivery-and-retries.3' : read.disabled_reason === null ? 'schema.Webhook.4' : 'schema.Webhook.5';
    check.fail({
      at: webhooks.read,
      rule,
      observed: `${after} the webhook reads enabled ${String(read.enabled)}, disabled_reason ${JSON.stringify(read.disabled_reason)}; expected false and endpoint_gone`,
    });
  }
  const last = read.last_delivery as Json | null;
  if (last?.status_code !== 410 || last.succeeded !== false)
    check.fail({ at: webhooks.read, rule: 'schema.LastDelivery.2', observed: `after a 410, last_delivery is ${JSON.stringify(last)}` });
  const ids = new Set(gone.deliveries().map(deliveryId));
  await createFinding(ctx, check);
  await gone.waitFor(() => false, 'deliveries that must not come', GRACE_MS);
  const more = gone.deliveries().filter((x) => !ids.has(deliveryId(x)));
  if (more.length > 0)
    check.fail({
      at: subject,
      rule: 'response.ReceiverGone.1',
      observed: `a webhook disabled by a 410 received ${more.length} more deliveries`,
    });
  const reenabled = await ctx.send(webhooks.update, { id: hook.id, body: { url: read.url, events: read.events, enabled: true } });
  check.conform(webhooks.update, reenabled, { statuses: [200] }, 're-enabling the webhook');
  const json = reenabled.json as Json;
  if (json.enabled !== true || json.disabled_reason !== null) {
    const message = `re-enabled, the webhook reads enabled ${String(json.enabled)}, disabled_reason ${JSON.stringify(json.disabled_reason)}`;
    // The operation and the update schema state it alike.
    check.fail({ at: webhooks.update, rule: ['updateWebhook.2', 'schema.WebhookUpdate.3'], observed: message, exchange: reenabled });
  }
  // A re-enabled webhook gets nothing more from the 410 path: point it nowhere it would answer 410 again.
  await ctx.send(webhooks.delete, { id: hook.id });
  return { note: `disabled ${after}` };
}
