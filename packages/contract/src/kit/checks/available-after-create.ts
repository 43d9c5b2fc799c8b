// `available-after-create`: what a create answers is readable at once, by id and on the list.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { type Crud, cruds, idsOf } from './shared/stateful.ts';

const RULES = ['pagination.1', 'createPolicy.3', 'createFinding.3', 'createWebhook.4'] as const;
type Rule = (typeof RULES)[number];

export const availableAfterCreateCheck = defineCheck({
  name: 'available-after-create',
  column: 'avail',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 0 },
  instances: (model) =>
    cruds(model).map((resource) => ({
      subjects: [resource.create.label, resource.read.label, resource.list.label],
      run: (ctx, check) => availableAfterCreate(ctx, resource, check),
    })),
});

async function availableAfterCreate(ctx: KitContext, resource: Crud, check: Check<Rule>): Promise<void> {
  const { id, exchange: created } = await ctx.create(resource, check);
  const read = await ctx.send(resource.read, { id });
  check.conform(resource.read, read, { statuses: [200] }, `read right after creating ${id}`);
  if ((read.json as { id?: unknown }).id !== id)
    check.fail({ at: resource.read, observed: `read returned id ${String((read.json as { id?: unknown }).id)}, not ${id}` });
  const createdTag = created.headers.get('etag');
  if (createdTag !== null && read.headers.get('etag') !== createdTag) {
    check.fail({
      at: resource.read,
      observed: `the ETag of an unchanged resource differs between create (${createdTag}) and read (${String(read.headers.get('etag'))})`,
    });
  }
  const listed = await ctx.send(resource.list, { query: { limit: '100' } });
  check.conform(resource.list, listed, { statuses: [200] }, 'list right after create');
  if (!idsOf(listed.json).includes(id))
    check.fail({ at: resource.list, observed: `the new ${id} is not on the first page of the list, newest first` });
}
