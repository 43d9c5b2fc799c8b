// `secrets`: no response (create, read, list, update; write key and read key) carries a secret the
// kit set, or a `secret` field at all.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { documentedResources } from './shared/documented.ts';
import { bodyWith, crudNamed, type Json, newSecret } from './shared/rule-support.ts';

const RULES = [
  'authentication.4',
  'rotating-a-secret.5',
  'createWebhook.2',
  'schema.Webhook.2',
  'schema.Webhook.3',
  'schema.WebhookSecret.2',
] as const;
type Rule = (typeof RULES)[number];

export const secretsCheck = defineCheck({
  name: 'secrets',
  column: 'secret',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 5, perCase: 0 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { webhooks } = found;
    return [
      {
        subjects: [webhooks.read.label, webhooks.list.label, webhooks.create.label, webhooks.update.label],
        run: (ctx, check) => secrets(ctx, check),
      },
    ];
  },
});

async function secrets(ctx: KitContext, check: Check<Rule>): Promise<void> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const secret = newSecret();
  const { id, exchange } = await ctx.create(webhooks, check, await bodyWith(ctx, webhooks.create, { secret }));
  const rotated = newSecret();
  const url = (exchange.json as Json).url;
  const answers = [
    exchange,
    await ctx.send(webhooks.update, { id, body: { url, events: (exchange.json as Json).events, secret: rotated } }),
  ];
  for (const auth of ['api', ...(ctx.http.hasReadKey ? (['read'] as const) : [])] as const) {
    answers.push(await ctx.send(webhooks.read, { id, auth }), await ctx.send(webhooks.list, { auth, query: { limit: '100' } }));
  }
  for (const [index, answer] of answers.entries()) {
    const text = answer.text + JSON.stringify([...answer.headers]);
    if (text.includes(secret) || text.includes(rotated)) {
      // After the PUT that replaced it, either secret in an answer breaks the rotation's promise too.
      const rotation = index > 0 ? (['rotating-a-secret.5'] as const) : [];
      const rules = ['authentication.4', 'schema.Webhook.3', ...rotation] as const;
      check.fail({ at: webhooks.read, rule: rules, observed: 'a response carries the webhook secret the kit set', exchange: answer });
    }
    if (/"secret"\s*:/.test(answer.text))
      check.fail({ at: webhooks.read, rule: 'schema.WebhookSecret.2', observed: 'a response carries a "secret" field', exchange: answer });
  }
}
