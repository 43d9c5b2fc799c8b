// `PUT` replaces (every writable field the body omits takes its default, read from the schema's
// `default`), with the one exception the document makes: a webhook's `secret` (omitted = kept,
// `null` = removed, a string = replaced); secrets never come back, whichever key reads them; and a
// read-only key can do every read.
import { isDeepStrictEqual } from 'node:util';
import type { KitContext } from '../context.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { schemaDescriptionAt, statedAt, statedFor } from '../rules/stated.ts';
import { type OperationModel, type ResourceModel, schemaAt } from '../spec.ts';
import { ContractViolation, rulesViolated } from '../verify.ts';
import { bodyWith, breach, crudNamed, defaultOf, type Json, newSecret } from './rule-support.ts';

type Crud = ResourceModel & Required<Pick<ResourceModel, 'create' | 'read' | 'update'>>;

/** The rules each resource's replace semantics come from (the operation's and its body schema's). */
const RULES: Record<string, RuleId[]> = {
  policies: ['updatePolicy.1', 'schema.PolicyWrite.2'],
  findings: ['schema.FindingUpdate.3', 'schema.FindingUpdate.1'],
  webhooks: ['schema.WebhookUpdate.1'],
};

/** The "Defaults to …" sentence of a body property: on the property itself or on the schema it refers to. */
function defaultRule(ctx: KitContext, body: Json, property: Json, name: string): RuleId | undefined {
  const bodyAt = schemaDescriptionAt(ctx.model.doc, body);
  const at = [
    bodyAt?.replace(/\/description$/, `/properties/${name}/description`),
    typeof property.$ref === 'string' ? schemaDescriptionAt(ctx.model.doc, schemaAt(ctx.model.doc, property.$ref)) : undefined,
  ];
  return at.flatMap((where) => (where ? statedAt(where, /^Defaults to/) : []))[0];
}

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
    // The resource's own replace rules, each kept field's "Defaults to …" and the general rule all say it.
    const fieldRules = kept.flatMap(([name]) => defaultRule(ctx, schema, properties[name]!, name) ?? []);
    const rules = new Set([
      ...(RULES[resource.name] ?? ['idempotency-and-concurrency.4' as const]),
      ...fieldRules,
      ...statedAt('/info/description', /what you omit takes its default/),
    ]);
    const details = kept.map(
      ([name, { value }]) =>
        `${name}: ${JSON.stringify((read.json as Json)[name])}, default ${JSON.stringify(value)} (was ${JSON.stringify(created[name])})`,
    );
    const message = 'fields the PUT omitted kept their old values instead of taking their defaults';
    throw new ContractViolation(resource.update.label, check, rulesViolated([...rules], message, details), read);
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
      const rotation = index > 0 ? (['rotating-a-secret.5'] as const) : [];
      const rules = ['authentication.4', 'schema.Webhook.3', ...rotation] as const;
      throw new ContractViolation(
        webhooks.read.label,
        check,
        rulesViolated(rules, 'a response carries the webhook secret the kit set'),
        answer,
      );
    }
    if (/"secret"\s*:/.test(answer.text))
      breach(webhooks.read.label, check, 'schema.WebhookSecret.2', 'a response carries a "secret" field', [], answer);
  }
}

/** The operation's own sentence on the scope it needs, which a refused read-only key breaks. */
const readScoped = (op: OperationModel, status: number) =>
  status === 401 || status === 403 ? statedFor(op, /Needs the `read` scope/) : [];

/** `read-scope`: a key with only the read scope may use every GET operation. */
export async function readScope(ctx: KitContext, check: string): Promise<void | { skipped: string }> {
  if (!ctx.http.hasReadKey) return { skipped: 'no --read-key given' };
  for (const resource of ctx.model.resources) {
    if (resource.list) {
      const answer = await ctx.send(resource.list, { auth: 'read', query: { limit: '1' } });
      ctx.expect(
        resource.list,
        check,
        answer,
        { statuses: [200], rules: readScoped(resource.list, answer.status) },
        'a read-only key on a GET',
      );
    }
    if (resource.read) {
      const answer = await ctx.send(resource.read, { id: await ctx.fixture(resource), auth: 'read' });
      ctx.expect(
        resource.read,
        check,
        answer,
        { statuses: [200], rules: readScoped(resource.read, answer.status) },
        'a read-only key on a GET',
      );
    }
  }
}
