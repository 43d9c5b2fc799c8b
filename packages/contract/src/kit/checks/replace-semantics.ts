// `replace-semantics`: a resource created with every defaulted field set to something else, then
// replaced with only the required fields, reads back with each of those fields at its default.
import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { type StatedRule, schemaDescriptionAt, statedAt } from '../rules/stated.ts';
import { type ResourceModel, schemaAt } from '../spec.ts';
import { documentedResources } from './shared/documented.ts';
import { bodyWith, crudNamed, defaultOf, type Json, newSecret } from './shared/rule-support.ts';

const RULES = [
  'idempotency-and-concurrency.4',
  'updatePolicy.1',
  'updateFinding.1',
  'updateFinding.7',
  'updateWebhook.1',
  'schema.Description.2',
  'schema.FindingUpdate.1',
  'schema.FindingUpdate.3',
  'schema.PolicyWrite.2',
  'schema.PolicyWrite.6',
  'schema.Webhook.7',
  'schema.WebhookUpdate.1',
  'schema.WebhookUpdate.2',
  'createWebhook.2',
] as const;
type Rule = (typeof RULES)[number];

type Crud = ResourceModel & Required<Pick<ResourceModel, 'create' | 'read' | 'update'>>;

export const replaceSemanticsCheck = defineCheck({
  name: 'replace-semantics',
  column: 'put',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 4, perCase: 0 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found) return [];
    return [found.policies, found.findings, found.webhooks].map((resource) => ({
      subjects: [resource.update.label],
      run: async (ctx, check, cases) => {
        await replaceSemantics(ctx, resource, check, cases);
        if (resource === found.webhooks) await webhookSecret(ctx, check);
      },
    }));
  },
});

/** The rules each resource's replace semantics come from (the operation's and its body schema's). */
const REPLACE_RULES: Record<string, Rule[]> = {
  policies: ['updatePolicy.1', 'schema.PolicyWrite.2'],
  findings: ['schema.FindingUpdate.3', 'schema.FindingUpdate.1'],
  webhooks: ['schema.WebhookUpdate.1'],
};

/** The "Defaults to …" sentence of a body property: on the property itself or on the schema it refers to. */
function defaultRule(ctx: KitContext, body: Json, property: Json, name: string): StatedRule | undefined {
  const bodyAt = schemaDescriptionAt(ctx.model.doc, body);
  const at = [
    bodyAt?.replace(/\/description$/, `/properties/${name}/description`),
    typeof property.$ref === 'string' ? schemaDescriptionAt(ctx.model.doc, schemaAt(ctx.model.doc, property.$ref)) : undefined,
  ];
  return at.flatMap((where) => (where ? statedAt(where, /^Defaults to/) : []))[0];
}

async function replaceSemantics(ctx: KitContext, resource: Crud, check: Check<Rule>, cases: number): Promise<void> {
  const schema = schemaAt(ctx.model.doc, resource.update.body!.pointer);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const defaulted = Object.entries(properties)
    .map(([name, property]) => [name, defaultOf(ctx, property)] as const)
    .filter((entry): entry is readonly [string, { value: unknown }] => entry[1] !== undefined && !required.has(entry[0]));
  // A value other than the default for each defaulted field, from generated valid bodies.
  const samples = (await ctx.validBodies(resource.create, cases * 2)) as Json[];
  const base = { ...samples[0]! };
  for (const [name, { value }] of defaulted) {
    const other = samples.map((s) => s[name]).find((v) => v !== undefined && !isDeepStrictEqual(v, value));
    if (other !== undefined) base[name] = other;
    else if (typeof value === 'boolean') base[name] = !value;
  }
  const { id, exchange } = await ctx.create(resource, check, base);
  const created = exchange.json as Json;
  const minimal = Object.fromEntries([...required].map((name) => [name, created[name] ?? base[name]]));
  const replaced = await ctx.send(resource.update, { id, body: minimal });
  check.conform(resource.update, replaced, { statuses: [200] }, 'a PUT with only the required fields');
  const read = await ctx.send(resource.read, { id });
  check.conform(resource.read, read, { statuses: [200] }, 'reading the replaced resource');
  const kept = defaulted.filter(([name, { value }]) => name in (read.json as Json) && !isDeepStrictEqual((read.json as Json)[name], value));
  if (kept.length > 0) {
    // The resource's own replace rules, each kept field's "Defaults to …" and the general rule all say it.
    const fieldRules = kept.flatMap(([name]) => defaultRule(ctx, schema, properties[name]!, name) ?? []);
    const rules = new Set([
      ...(REPLACE_RULES[resource.name] ?? ['idempotency-and-concurrency.4' as const]),
      ...fieldRules,
      ...statedAt('/info/description', /what you omit takes its default/),
    ]);
    const details = kept.map(
      ([name, { value }]) =>
        `${name}: ${JSON.stringify((read.json as Json)[name])}, default ${JSON.stringify(value)} (was ${JSON.stringify(created[name])})`,
    );
    const message = 'fields the PUT omitted kept their old values instead of taking their defaults';
    check.fail({ at: resource.update, rule: [...rules], observed: message, details, exchange: read });
  }
}

/**
 * `webhook-secret`: omitted keeps the secret, `null` removes it, a string replaces it (has_secret
 * tells); a webhook disabled by its owner has no disabled_reason.
 */
async function webhookSecret(ctx: KitContext, check: Check<Rule>): Promise<void> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const { id, exchange } = await ctx.create(webhooks, check, await bodyWith(ctx, webhooks.create, { secret: newSecret(), enabled: true }));
  const created = exchange.json as Json;
  const body = { url: created.url, events: created.events };
  const hasSecret = async (sent: Json, why: string, expected: boolean, rule: Rule) => {
    const answer = await ctx.send(webhooks.update, { id, body: { ...body, ...sent } });
    check.conform(webhooks.update, answer, { statuses: [200] }, why);
    const read = await ctx.send(webhooks.read, { id });
    const json = read.json as Json;
    if ((answer.json as Json).has_secret !== expected || json.has_secret !== expected) {
      check.fail({
        at: webhooks.update,
        rule,
        observed: `after a PUT ${why}, has_secret is ${String(json.has_secret)}, not ${expected}`,
        exchange: read,
      });
    }
    return json;
  };
  if (created.has_secret !== true)
    check.fail({
      at: webhooks.create,
      rule: 'createWebhook.2',
      observed: 'a webhook created with a secret has has_secret false',
      exchange,
    });
  await hasSecret({}, 'without secret (kept)', true, 'schema.WebhookUpdate.2');
  await hasSecret({ secret: null }, 'with secret: null (removed)', false, 'schema.WebhookUpdate.2');
  await hasSecret({}, 'without secret after it was removed (still none)', false, 'schema.WebhookUpdate.2');
  await hasSecret({ secret: newSecret() }, 'with a new secret string', true, 'schema.WebhookUpdate.2');
  const disabled = await hasSecret({ enabled: false }, 'with enabled: false and no secret', true, 'schema.WebhookUpdate.2');
  if (disabled.enabled !== false || disabled.disabled_reason !== null) {
    check.fail({
      at: webhooks.update,
      rule: 'schema.Webhook.7',
      observed: `a webhook disabled by its owner reads enabled ${String(disabled.enabled)}, disabled_reason ${JSON.stringify(disabled.disabled_reason)}`,
    });
  }
}
