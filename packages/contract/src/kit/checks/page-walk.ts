// A list walked by cursors with a small limit: no item twice, none the kit created left out, newest
// first, and a last page whose `next_cursor` is null; each failure names where the document says so.
import type { KitContext } from '../context.ts';
import { statedAt, statedFor, statedOfParam, statedOfSchema } from '../rules/stated.ts';
import { type OperationModel, schemaAt } from '../spec.ts';
import { type Crud, fail, idsOf } from './stateful.ts';

const PAGE_LIMIT = 2;
const PAGE_ITEMS = 5;
const MAX_PAGES = 2_000;

/** Walks every page with a small limit: no duplicates, nothing created is missed, newest first. */
export async function pagination(ctx: KitContext, resource: Crud, check: string, cases: number): Promise<void> {
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
    ctx.expect(resource.list, check, exchange, { statuses: [200] }, `page ${pages + 1} with limit ${PAGE_LIMIT}`);
    const page = exchange.json as { data: { id: string; created_at: string }[]; next_cursor: string | null };
    if (page.data.length > PAGE_LIMIT)
      fail(resource.list, check, `page ${pages + 1} has ${page.data.length} items, over limit ${PAGE_LIMIT}`);
    if (page.next_cursor !== null && page.data.length === 0)
      fail(resource.list, check, `page ${pages + 1} is empty but has a next_cursor`, [], rules.lastPage);
    seen.push(...page.data);
    // Checked page by page: a cursor that is ignored repeats the first page without end.
    const ids = seen.map((item) => item.id);
    const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (duplicates.length > 0) fail(resource.list, check, `the walk returned duplicates`, duplicates.slice(0, 5), rules.walk);
    cursor = page.next_cursor;
    if (++pages > MAX_PAGES) fail(resource.list, check, `more than ${MAX_PAGES} pages: the cursor never ends`, [], rules.lastPage);
  } while (cursor !== null);

  const ids = seen.map((item) => item.id);
  const missing = mine.filter((id) => !ids.includes(id));
  if (missing.length > 0) fail(resource.list, check, `the walk skipped items that exist (gaps)`, missing, rules.walk);
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    if (a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id)) {
      fail(
        resource.list,
        check,
        `items ${i - 1} and ${i} are not newest first by (created_at, id)`,
        [JSON.stringify(a), JSON.stringify(b)],
        rules.order,
      );
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
