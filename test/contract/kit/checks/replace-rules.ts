// `PUT` replaces (every writable field the body omits takes its default, read from the schema's
// `default`), with the one exception the document makes: a webhook's `secret` (omitted = kept,
// `null` = removed, a string = replaced); secrets never come back, whichever key reads them; and a
// read-only key can do every read.
import { isDeepStrictEqual } from 'node:util';
import type { KitContext } from '../context.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { type ResourceModel, schemaAt } from '../spec.ts';
import { ContractViolation } from '../verify.ts';
import { bodyWith, breach, crudNamed, defaultOf, type Json, newSecret, ruleViolation } from './rule-support.ts';

type Crud = ResourceModel & Required<Pick<ResourceModel, 'create' | 'read' | 'update'>>;

/** The rule each resource's replace semantics come from. */
const RULE: Record<string, RuleId> = { policies: 'updatePolicy.1', findings: 'schema.FindingUpdate.3', webhooks: 'schema.WebhookUpdate.1' };

/**
 * `replace-semantics`: a resource created with every defaulted field set to something else, then
 * replaced with only the required fields, reads back with each of those fields at its default.
 */
export async function replaceSemantics(ctx: KitContext, resource: Crud, check: string, cases: number): Promise<void> {
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
  ctx.expect(resource.update, check, replaced, { statuses: [200] }, 'a PUT with only the required fields');
  const read = await ctx.send(resource.read, { id });
  ctx.expect(resource.read, check, read, { statuses: [200] }, 'reading the replaced resource');
  const kept = defaulted.filter(([name, { value }]) => name in (read.json as Json) && !isDeepStrictEqual((read.json as Json)[name], value));
  if (kept.length > 0) {
    breach(
      resource.update.label,
      check,
      RULE[resource.name] ?? 'idempotency-and-concurrency.4',
      'fields the PUT omitted kept their old values instead of taking their defaults',
      kept.map(
        ([name, { value }]) =>
          `${name}: ${JSON.stringify((read.json as Json)[name])}, default ${JSON.stringify(value)} (was ${JSON.stringify(created[name])})`,
      ),
      read,
    );
  }
}

/**
 * `webhook-secret`: omitted keeps the secret, `null` removes it, a string replaces it (has_secret
 * tells); a webhook disabled by its owner has no disabled_reason.
 */
export async function webhookSecret(ctx: KitContext, check: string): Promise<void> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const { id, exchange } = await ctx.create(webhooks, check, await bodyWith(ctx, webhooks.create, { secret: newSecret(), enabled: true }));
  const created = exchange.json as Json;
  const body = { url: created.url, events: created.events };
  const hasSecret = async (sent: Json, why: string, expected: boolean, rule: RuleId) => {
    const answer = await ctx.send(webhooks.update, { id, body: { ...body, ...sent } });
    ctx.expect(webhooks.update, check, answer, { statuses: [200] }, why);
    const read = await ctx.send(webhooks.read, { id });
    const json = read.json as Json;
    if ((answer.json as Json).has_secret !== expected || json.has_secret !== expected) {
      breach(webhooks.update.label, check, rule, `after a PUT ${why}, has_secret is ${String(json.has_secret)}, not ${expected}`, [], read);
    }
    return json;
  };
  if (created.has_secret !== true)
    breach(webhooks.create.label, check, 'createWebhook.2', 'a webhook created with a secret has has_secret false', [], exchange);
  await hasSecret({}, 'without secret (kept)', true, 'schema.WebhookUpdate.2');
  await hasSecret({ secret: null }, 'with secret: null (removed)', false, 'schema.WebhookUpdate.2');
  await hasSecret({}, 'without secret after it was removed (still none)', false, 'schema.WebhookUpdate.2');
  await hasSecret({ secret: newSecret() }, 'with a new secret string', true, 'schema.WebhookUpdate.2');
  const disabled = await hasSecret({ enabled: false }, 'with enabled: false and no secret', true, 'schema.WebhookUpdate.2');
  if (disabled.enabled !== false || disabled.disabled_reason !== null) {
    breach(
      webhooks.update.label,
      check,
      'schema.Webhook.7',
      `a webhook disabled by its owner reads enabled ${String(disabled.enabled)}, disabled_reason ${JSON.stringify(disabled.disabled_reason)}`,
    );
  }
}

/**
 * `secrets`: no response (create, read, list, update; write key and read key) carries a secret
 * the kit set, or a `secret` field at all.
 */
export async function secrets(ctx: KitContext, check: string): Promise<void> {
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
      const rules = ['authentication.4', ...(index > 0 ? (['rotating-a-secret.5'] as const) : [])] as const;
      const found = rules.map((rule) => ruleViolation(rule, 'a response carries the webhook secret the kit set'));
      throw new ContractViolation(webhooks.read.label, check, found, answer);
    }
    if (/"secret"\s*:/.test(answer.text))
      breach(webhooks.read.label, check, 'schema.WebhookSecret.2', 'a response carries a "secret" field', [], answer);
  }
}

/** `read-scope`: a key with only the read scope may use every GET operation. */
export async function readScope(ctx: KitContext, check: string): Promise<void | { skipped: string }> {
  if (!ctx.http.hasReadKey) return { skipped: 'no --read-key given' };
  for (const resource of ctx.model.resources) {
    if (resource.list)
      ctx.expect(
        resource.list,
        check,
        await ctx.send(resource.list, { auth: 'read', query: { limit: '1' } }),
        { statuses: [200] },
        'a read-only key on a GET',
      );
    if (resource.read) {
      const id = await ctx.fixture(resource);
      ctx.expect(
        resource.read,
        check,
        await ctx.send(resource.read, { id, auth: 'read' }),
        { statuses: [200] },
        'a read-only key on a GET',
      );
    }
  }
}
