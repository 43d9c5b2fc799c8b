// A list walked by cursors with a small limit: no item twice, none the kit created left out, newest
// first, and a last page whose `next_cursor` is null; each failure names where the document says so.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { statedAt, statedFor, statedOfParam, statedOfSchema } from '../rules/stated.ts';
import { type OperationModel, schemaAt } from '../spec.ts';
import { type Crud, cruds, idsOf } from './shared/stateful.ts';

const RULES = [
  'pagination.1',
  'pagination.3',
  'listPolicies.1',
  'listPolicies.2',
  'listFindings.1',
  'listFindings.2',
  'listWebhooks.1',
  'listWebhooks.2',
  'schema.FindingList.1',
  'schema.NextCursor.1',
  'schema.PolicyList.1',
  'schema.WebhookList.1',
  'param.Cursor.1',
] as const;
type Rule = (typeof RULES)[number];

export const paginationCheck = defineCheck({
  name: 'pagination',
  column: 'pages',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 6, perCase: 0.2 },
  instances: (model) =>
    cruds(model).map((resource) => ({
      subjects: [resource.list.label],
      run: (ctx, check, cases) => pagination(ctx, resource, check, cases),
    })),
});

const PAGE_LIMIT = 2;
const PAGE_ITEMS = 5;
const MAX_PAGES = 2_000;

/** Walks every page with a small limit: no duplicates, nothing created is missed, newest first. */
async function pagination(ctx: KitContext, resource: Crud, check: Check<Rule>, cases: number): Promise<void> {
  // At least two pages of the kit's own; more when the generated cases allow (a time budget samples
  // them down). Its items that earlier checks left count (a list on the read key spends none of the
  // writes' quota); only the rest are created.
  const wanted = Math.min(PAGE_ITEMS, PAGE_LIMIT + cases);
  const present = new Set(idsOf((await ctx.send(resource.list, { query: { limit: '100' } })).json));
  const mine = ctx
    .createdIds(resource)
    .filter((id) => present.has(id))
    .slice(-wanted);
  while (mine.length < wanted) mine.push((await ctx.create(resource, check)).id);
  const rules = walkRules(ctx, resource.list);
  const seen: { id: string; created_at: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const exchange = await ctx.send(resource.list, { query: { limit: String(PAGE_LIMIT), ...(cursor ? { cursor } : {}) } });
    check.conform(resource.list, exchange, { statuses: [200] }, `page ${pages + 1} with limit ${PAGE_LIMIT}`);
    const page = exchange.json as { data: { id: string; created_at: string }[]; next_cursor: string | null };
    if (page.data.length > PAGE_LIMIT)
      check.fail({ at: resource.list, observed: `page ${pages + 1} has ${page.data.length} items, over limit ${PAGE_LIMIT}` });
    if (page.next_cursor !== null && page.data.length === 0)
      check.fail({ at: resource.list, rule: rules.lastPage, observed: `page ${pages + 1} is empty but has a next_cursor` });
    seen.push(...page.data);
    // Checked page by page: a cursor that is ignored repeats the first page without end.
    const ids = seen.map((item) => item.id);
    const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (duplicates.length > 0)
      check.fail({ at: resource.list, rule: rules.walk, observed: `the walk returned duplicates`, details: duplicates.slice(0, 5) });
    cursor = page.next_cursor;
    if (++pages > MAX_PAGES)
      check.fail({ at: resource.list, rule: rules.lastPage, observed: `more than ${MAX_PAGES} pages: the cursor never ends` });
  } while (cursor !== null);

  const ids = seen.map((item) => item.id);
  const missing = mine.filter((id) => !ids.includes(id));
  if (missing.length > 0)
    check.fail({ at: resource.list, rule: rules.walk, observed: `the walk skipped items that exist (gaps)`, details: missing });
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    if (a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id)) {
      check.fail({
        at: resource.list,
        rule: rules.order,
        observed: `items ${i - 1} and ${i} are not newest first by (created_at, id)`,
        details: [JSON.stringify(a), JSON.stringify(b)],
      });
    }
  }
}

/** Where the document states the order of a list, the walk by cursors, and the last page's `next_cursor`. */
function walkRules(ctx: KitContext, list: OperationModel) {
  const page = list.responses.get('200')?.content.get('application/json') ?? '';
  const next = (schemaAt(ctx.model.doc, page).properties as Record<string, { $ref?: string }> | undefined)?.next_cursor?.$ref;
  return {
    order: [
      ...statedAt('/info/description', /newest first by/),
      ...statedFor(list, /newest first/),
      ...statedOfSchema(ctx.model.doc, page, /newest first/),
    ],
    walk: [
      ...statedFor(list, /no duplicates/),
      ...statedAt('/info/description', /next_cursor` back/),
      ...statedOfParam(list, 'cursor', /next_cursor/),
    ],
    lastPage: next ? statedAt(`${next}/description`, /null/) : [],
  };
}
