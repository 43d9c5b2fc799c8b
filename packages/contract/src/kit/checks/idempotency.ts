// `idempotency`: a create retried with the same Idempotency-Key replays the first response (marked
// with `Idempotent-Replayed: true` when the document declares that header); another body with it is
// 409. Keys at the header's maximum length that differ only in their last character are two keys,
// and a key one character over the maximum is refused.
import { randomUUID } from 'node:crypto';
import { defineCheck, type Instance } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { sentenceRule, statedOfHeader, statedOfParam, statedOfResponse } from '../rules/stated.ts';
import { schemaAt } from '../spec.ts';
import { hasNestedLeaves, nestedVariant } from './shared/nested-variant.ts';
import { type Crud, cruds } from './shared/stateful.ts';

const RULES = [
  'idempotency-and-concurrency.1',
  'createPolicy.4',
  'createFinding.4',
  'createWebhook.5',
  'param.IdempotencyKey.2',
  'header.IdempotentReplayed.1',
  'response.IdempotencyConflict.1',
  'limits.2',
  'errors.5',
] as const;
type Rule = (typeof RULES)[number];

export const idempotencyCheck = defineCheck({
  name: 'idempotency',
  column: 'idem',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 5, perCase: 0 },
  instances: (model) =>
    cruds(model).flatMap((resource): Instance<Rule>[] => {
      const key = resource.create.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      if (!key || !resource.create.responses.has('409')) return [];
      return [
        {
          subjects: [resource.create.label],
          run: async (ctx, check) => {
            await idempotency(ctx, resource, key.name, check);
            await longestKeys(ctx, resource, key.name, check);
          },
        },
      ];
    }),
});

const REPLAYED_HEADER = 'idempotent-replayed';

async function idempotency(ctx: KitContext, resource: Crud, header: string, check: Check<Rule>): Promise<void> {
  const key = randomUUID();
  // A first body with members below the top level, when the generator gives one: a body that
  // differs from it only there is sent last.
  const pool = await ctx.validBodies(resource.create, 8);
  const first = pool.find(hasNestedLeaves) ?? pool[0];
  const other = pool.find((body) => body !== first);
  const { id, exchange: original } = await ctx.create(resource, check, first, { [header]: key });
  const retriesSafe = sentenceRule(resource.create, new RegExp(header, 'i'));
  const replay = await ctx.send(resource.create, { body: first, headers: { [header]: key } });
  const replays = statedOfParam(resource.create, header.toLowerCase(), /first response again/);
  check.conform(
    resource.create,
    replay,
    { statuses: [original.status], rules: [...replays, ...retriesSafe] },
    `the same ${header} and body again`,
  );
  const replayedId = (replay.json as { id?: unknown }).id;
  if (replayedId !== id) {
    const rules = [...replays, ...retriesSafe];
    check.fail({ at: resource.create, rule: rules, observed: `the retry created ${String(replayedId)} instead of replaying ${id}` });
  }
  const marker = resource.create.responses.get(String(original.status))?.headers.find((h) => h.name.toLowerCase() === REPLAYED_HEADER);
  if (marker) {
    const marks = statedOfHeader(resource.create, String(original.status), REPLAYED_HEADER, /replay/);
    if (original.headers.get(REPLAYED_HEADER) !== null)
      check.fail({ at: resource.create, rule: marks, observed: `the first response already carries ${marker.name}` });
    if (replay.headers.get(REPLAYED_HEADER) !== 'true') {
      check.fail({
        at: resource.create,
        rule: marks,
        observed: `the replay carries ${marker.name}: ${String(replay.headers.get(REPLAYED_HEADER))}, not true (the document declares it)`,
      });
    }
  }
  const reused = await ctx.send(resource.create, {
    body: { ...(other as object), ...(JSON.stringify(other) === JSON.stringify(first) ? { description: 'different' } : {}) },
    headers: { [header]: key },
  });
  const conflict = [
    ...statedOfParam(resource.create, header.toLowerCase(), /409/),
    ...statedOfResponse(resource.create, '409', /already used/),
  ];
  check.conform(resource.create, reused, { statuses: [409], rules: conflict }, `the same ${header} with another body`);
  // Bodies that differ only below the top level: a comparison of top-level members would replay.
  const nested = await nestedVariant(ctx, resource.create, first);
  if (nested) {
    const again = await ctx.send(resource.create, { body: nested.body, headers: { [header]: key } });
    check.conform(
      resource.create,
      again,
      { statuses: [409], rules: conflict },
      `the same ${header} with a body that differs only in ${nested.at}`,
    );
  }
}

/**
 * Two keys at the header's maximum length, alike but for their last character, each with its own
 * body: two creates (a store that cuts keys short replays or refuses the second); then a key one
 * character longer, refused as invalid.
 */
async function longestKeys(ctx: KitContext, resource: Crud, header: string, check: Check<Rule>): Promise<void> {
  const param = resource.create.params.find((p) => p.in === 'header' && p.name === header);
  const schema = param && (schemaAt(ctx.model.doc, param.pointer) as { maxLength?: number } | undefined);
  const max = schema?.maxLength;
  if (max === undefined || max < 2) return;
  const stem = `${randomUUID()}-`.padEnd(max - 1, 'k').slice(0, max - 1);
  const [first, second] = (await ctx.validBodies(resource.create, 2)) as [object, object];
  const one = await ctx.send(resource.create, { body: first, headers: { [header]: `${stem}A` } });
  const two = await ctx.send(resource.create, { body: second, headers: { [header]: `${stem}B` } });
  const rules: Rule[] = ['param.IdempotencyKey.2', 'limits.2'];
  check.conform(resource.create, one, { range: '2xx', rules }, `a create with a ${header} of ${max} characters`);
  check.conform(
    resource.create,
    two,
    { range: '2xx', rules },
    `a create with another ${header} of ${max} characters, alike but for its last`,
  );
  const ids = [one, two].map((exchange) => (exchange.json as { id?: unknown } | undefined)?.id);
  if (one.status < 300 && two.status < 300 && ids[0] === ids[1])
    check.fail({
      at: resource.create,
      rule: rules,
      observed: `two ${header}s of ${max} characters that differ in their last character replayed one create (${String(ids[0])})`,
      exchange: two,
    });
  const over = await ctx.send(resource.create, { body: first, headers: { [header]: `${stem}AB` } });
  check.conform(resource.create, over, { statuses: [400], rules: ['limits.2', 'errors.5'] }, `a ${header} of ${max + 1} characters`);
}
