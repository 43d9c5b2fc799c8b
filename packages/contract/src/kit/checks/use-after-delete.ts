// `use-after-delete`: once a delete succeeded, the resource is gone from reads, updates, deletes
// and the list.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { sentenceRule } from '../rules/stated.ts';
import { successStatuses } from '../spec.ts';
import { type Crud, cruds, idsOf } from './shared/stateful.ts';

const RULES = [
  'deletePolicy.1',
  'deleteFinding.1',
  'deleteWebhook.1',
  'param.PolicyIdPath.2',
  'param.FindingIdPath.2',
  'param.WebhookIdPath.2',
  'response.NotFound.1',
] as const;
type Rule = (typeof RULES)[number];

export const useAfterDeleteCheck = defineCheck({
  name: 'use-after-delete',
  column: 'gone',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 4, perCase: 0 },
  instances: (model) =>
    cruds(model).map((resource) => ({
      subjects: [resource.delete.label, resource.read.label, resource.update.label, resource.list.label],
      run: (ctx, check) => useAfterDelete(ctx, resource, check),
    })),
});

async function useAfterDelete(ctx: KitContext, resource: Crud, check: Check<Rule>): Promise<void> {
  const { id } = await ctx.create(resource, check);
  const [update] = await ctx.validBodies(resource.update, 1);
  // "Deletes the …": what the delete's description says first.
  const deletes = sentenceRule(resource.delete, /^Deletes/);
  check.conform(resource.delete, await ctx.send(resource.delete, { id }), { statuses: successStatuses(resource.delete) }, 'delete');
  const gone = ['response.NotFound.1' as const];
  check.conform(
    resource.read,
    await ctx.send(resource.read, { id }),
    { statuses: [404], rules: [...gone, ...deletes] },
    'read after delete',
  );
  check.conform(
    resource.update,
    await ctx.send(resource.update, { id, body: update }),
    { statuses: [404], rules: deletes },
    'update after delete',
  );
  check.conform(resource.delete, await ctx.send(resource.delete, { id }), { statuses: [404], rules: deletes }, 'second delete');
  const listed = await ctx.send(resource.list, { query: { limit: '100' } });
  check.conform(resource.list, listed, { statuses: [200] }, 'list after delete');
  if (idsOf(listed.json).includes(id)) check.fail({ at: resource.list, rule: deletes, observed: `the deleted ${id} is still on the list` });
}
