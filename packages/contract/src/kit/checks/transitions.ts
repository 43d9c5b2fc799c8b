// A state machine the document describes, from outside: every legal move answers 200 with the new
// state, every illegal one 409 and changes nothing; and items spread over every state, so a filter
// a target ignores shows.
import { defineCheck, type Instance } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { CATALOGUE } from '../rules/catalogue.ts';
import { operationAt, type StatedRule, schemaDescriptionAt } from '../rules/stated.ts';
import { type Transitions, transitionsOf } from '../semantics.ts';
import { schemaAt } from '../spec.ts';
import { pathTo, updateBodies } from './shared/state-machine.ts';
import { type Crud, cruds } from './shared/stateful.ts';

const RULES = [
  'updateFinding.1',
  'updateFinding.2',
  'updateFinding.14',
  'schema.FindingStatus.3',
  'schema.FindingStatus.4',
  'schema.FindingStatus.5',
  'schema.FindingStatus.6',
  'schema.FindingStatus.7',
  'schema.FindingStatus.8',
  'schema.FindingUpdate.5',
] as const;
type Rule = (typeof RULES)[number];

export const transitionsCheck = defineCheck({
  name: 'transitions',
  column: 'states',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 21, perCase: 0 },
  instances: (model) =>
    cruds(model).flatMap((resource): Instance<Rule>[] => {
      const machine = transitionsOf(model, resource.update);
      return machine ? [{ subjects: [resource.update.label], run: (ctx, check) => transitions(ctx, resource, machine, check) }] : [];
    }),
});

/**
 * Every (from, to) pair of the state machine the document describes: legal moves (and staying put)
 * answer 200 with the new state, illegal ones 409. One resource walks the machine, so each pair
 * costs one request: in each state it first tries the refused moves, then stays put (which shows
 * the refusals moved nothing), then takes a legal move not yet tried; when its state has none left,
 * it walks legal moves to a state that has.
 */
async function transitions(ctx: KitContext, resource: Crud, machine: Transitions, check: Check<Rule>): Promise<void> {
  const states = [...machine.allowed.keys()];
  const bodyFor = await updateBodies(ctx, resource, machine);
  const rules = transitionRules(ctx, resource, machine);
  const legal = (from: string, to: string) => from === to || machine.allowed.get(from)!.has(to);
  const { id, exchange } = await ctx.create(resource, check);
  let at = (exchange.json as Record<string, unknown>)[machine.property] as string;
  const untried = new Map(states.map((from) => [from, new Set(states)]));
  const attempt = async (to: string) => {
    const from = at;
    untried.get(from)?.delete(to);
    const allowed = legal(from, to);
    const answer = await ctx.send(resource.update, { id, body: bodyFor(to) });
    const why = `${from} → ${to} is ${allowed ? 'allowed' : 'not allowed'}`;
    const broken = !allowed ? rules.refusal : from === to ? rules.stay : rules.row(from);
    check.conform(resource.update, answer, { statuses: [allowed ? 200 : 409], rules: broken }, why);
    const now = (answer.json as Record<string, unknown>)[machine.property];
    if (allowed && now !== to)
      check.fail({ at: resource.update, rule: broken, observed: `after ${from} → ${to} the ${machine.property} is ${String(now)}` });
    if (allowed) at = to;
  };
  for (;;) {
    const here = [...(untried.get(at) ?? [])];
    for (const to of here.filter((to) => !legal(at, to))) await attempt(to);
    if (here.includes(at)) await attempt(at);
    const next = here.find((to) => to !== at && legal(at, to));
    if (next !== undefined) {
      await attempt(next);
      continue;
    }
    const goal = states.find((state) => untried.get(state)!.size > 0);
    if (goal === undefined) return;
    const path = pathTo(machine, at, goal);
    if (path.at(-1) !== goal) throw new Error(`${machine.property} ${goal} cannot be reached from ${at} by allowed transitions`);
    for (const step of path) await attempt(step);
  }
}

/**
 * The sentences a verdict breaks, from the update's descriptions, its body schema's and its state
 * schema's: the table row of the state moved from, staying put, and the refusal of any other move.
 */
function transitionRules(ctx: KitContext, resource: Crud, machine: Transitions) {
  const body = schemaAt(ctx.model.doc, resource.update.body!.pointer);
  const ref = ((body.properties ?? {}) as Record<string, { $ref?: string }>)[machine.property]?.$ref;
  const stateAt = ref ? schemaDescriptionAt(ctx.model.doc, schemaAt(ctx.model.doc, ref)) : undefined;
  const bodyAt = schemaDescriptionAt(ctx.model.doc, body);
  const opAt = operationAt(resource.update);
  const stated = CATALOGUE.filter((e) => e.at === stateAt || e.at === bodyAt || e.at.startsWith(`${opAt}/`));
  const ids = (pick: (text: string, at: string) => boolean): StatedRule[] =>
    stated.filter((e) => pick(e.text, e.at)).map((e) => e.id as StatedRule);
  return {
    row: (from: string) => ids((text, at) => at === stateAt && text.startsWith(`\`${from}\` |`)),
    stay: ids((text, at) => at === stateAt && /already has/.test(text)),
    refusal: ids((text) => /allowed transition|other change of/.test(text)),
  };
}
