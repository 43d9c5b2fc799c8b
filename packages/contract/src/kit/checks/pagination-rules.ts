// The paging rules the document states in words beyond what every page's schema shows: the default
// `limit`, cursors bound to the filters they were issued with (and malformed ones refused), and a
// walk that stays stable while other clients add items.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Exchange } from '../http.ts';
import { schemaRule, statedOfParam } from '../rules/stated.ts';
import type { OperationModel } from '../spec.ts';
import { ContractViolation } from '../verify.ts';
import { withResources } from './shared/documented.ts';
import { bodyWith, crudNamed, type Json } from './shared/rule-support.ts';
import type { Crud } from './shared/stateful.ts';

const RULES = [
  'pagination.2',
  'pagination.4',
  'listPolicies.2',
  'listFindings.2',
  'listWebhooks.2',
  'schema.Cursor.3',
  'schema.PolicyWrite.3',
  'param.Limit.1',
  'param.Cursor.2',
  'schema.NextCursor.1',
] as const;
type Rule = (typeof RULES)[number];

export const paginationRulesCheck = defineCheck({
  name: 'pagination-rules',
  column: 'paging',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 24, perCase: 0 },
  instances: (model) =>
    withResources(model, (found) => ({
      subjects: [found.policies.list.label],
      run: (ctx, check, cases) => paginationRules(ctx, check, cases),
    })),
});

/** The default page size the document states ("`limit` is 1 to 100 (default 20)"). */
function defaultLimit(ctx: KitContext): number | undefined {
  const match = /\(default (\d+)\)/.exec(ctx.model.doc.info.description ?? '');
  return match ? Number(match[1]) : undefined;
}

type Page = { data: Json[]; next_cursor: string | null };
const page = (exchange: Exchange) => exchange.json as Page;

/** `pagination-rules`, on the policies list (the one list whose items the kit can make alike). */
async function paginationRules(ctx: KitContext, check: Check<Rule>, cases: number): Promise<void> {
  const policies = crudNamed(ctx, 'policies');
  const list = policies.list;
  const limit = defaultLimit(ctx);
  if (limit === undefined) throw new Error('the document states no default limit');
  // A first page is asked for without a cursor: refusing one breaks what the cursor's own description says.
  const firstPage = statedOfParam(list, 'cursor', /first page/);
  const get = async (query: Record<string, string>, why: string, statuses = [200]) => {
    const answer = await ctx.send(list, { query });
    const refused = !('cursor' in query) && answer.status >= 400 && answer.status < 500;
    check.conform(list, answer, { statuses, rules: refused ? firstPage : [] }, why);
    return answer;
  };
  // Enough policies of the kit's own that a default page is full: those earlier checks left, and
  // identical new ones for the rest (names are not unique: schema.PolicyWrite.3). Only the kit's
  // own count, so another client deleting its policies cannot empty the page or the walk.
  const present = new Map(
    page(await get({ limit: '100' }, 'the policies there are')).data.map((item) => [String(item.id), item.enabled === true]),
  );
  const mine = ctx.createdIds(policies).filter((id) => present.has(id));
  // The filtered page below needs two enabled ones.
  let enabled = mine.filter((id) => present.get(id)).length;
  const body = await bodyWith(ctx, policies.create, { enabled: true });
  const named = mine.length;
  while (mine.length <= limit || enabled < 2) {
    mine.push((await createAgain(ctx, policies, check, body, mine.length > named)).id);
    enabled++;
  }
  const unlimited = await get({}, 'a list without limit');
  if (page(unlimited).data.length !== limit) {
    check.fail({
      at: list,
      rule: 'pagination.2',
      observed: `without limit a page has ${page(unlimited).data.length} items; the default is ${limit} and at least ${limit + 1} exist`,
      exchange: unlimited,
    });
  }
  if (page(unlimited).next_cursor === null)
    check.fail({
      at: list,
      rule: 'schema.NextCursor.1',
      observed: `a full default page of ${limit} with more items has next_cursor null`,
      exchange: unlimited,
    });

  const filtered = await get({ enabled: 'true', limit: '1' }, 'a filtered first page');
  const cursor = page(filtered).next_cursor;
  if (!cursor)
    check.fail({
      at: list,
      rule: 'schema.NextCursor.1',
      observed: 'a one-item page of many enabled policies has no next_cursor',
      exchange: filtered,
    });
  await get({ enabled: 'true', limit: '1', cursor }, 'the cursor with the filters it was issued with');
  const rebound = await ctx.send(list, { query: { enabled: 'false', limit: '1', cursor } });
  expectBadRequest(list, check, rebound, 'pagination.4', 'a cursor issued for enabled=true used with enabled=false');
  const dropped = await ctx.send(list, { query: { limit: '1', cursor } });
  expectBadRequest(list, check, dropped, 'schema.Cursor.3', 'a cursor issued for enabled=true used without the filter');
  const malformed = await ctx.send(list, { query: { cursor: `${cursor}!~` } });
  expectBadRequest(list, check, malformed, 'pagination.4', 'a malformed cursor (a valid one with characters appended)');
  for (const [made, what] of MADE_UP_CURSORS) {
    const answer = await ctx.send(list, { query: { cursor: made } });
    expectBadRequest(list, check, answer, 'pagination.4', `a cursor the service never issued, ${made} (${what})`);
  }

  await stableWalk(ctx, list, check, mine, Math.min(WALK_ADDITIONS, cases), async () => (await ctx.create(policies, check, body)).id);
}

function expectBadRequest(op: OperationModel, check: Check<Rule>, exchange: Exchange, rule: Rule, what: string): void {
  if (exchange.status !== 400) check.fail({ at: op, rule, observed: `${what} answered ${exchange.status}, not 400`, exchange });
}

/**
 * Cursors in the document's alphabet that no service issued: base64url of JSON that is not what a
 * cursor of that common encoding holds. Each must be refused as malformed, never read as a position.
 */
const MADE_UP_CURSORS = [
  ['e30', 'base64url of {}'],
  ['bnVsbA', 'base64url of null'],
  ['WyJ4Il0', 'base64url of ["x"]'],
  ['MTIz', 'base64url of 123'],
] as const;

/** Items added during the walk, one after each of its first pages; a time budget samples them down with the cases. */
const WALK_ADDITIONS = 3;

/** A walk with small pages while new items arrive between pages: no duplicates, nothing that existed skipped. */
async function stableWalk(
  ctx: KitContext,
  list: OperationModel,
  check: Check<Rule>,
  existing: string[],
  additions: number,
  add: () => Promise<string>,
): Promise<void> {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const answer = await ctx.send(list, { query: { limit: '7', ...(cursor ? { cursor } : {}) } });
    check.conform(list, answer, { statuses: [200] }, `page ${pages + 1} of a walk while items are added`);
    seen.push(...page(answer).data.map((item) => String(item.id)));
    cursor = page(answer).next_cursor;
    if (pages++ < additions) await add();
  } while (cursor !== null && pages < 2000);
  const duplicates = seen.filter((id, index) => seen.indexOf(id) !== index);
  const skipped = existing.filter((id) => !seen.includes(id));
  if (duplicates.length > 0 || skipped.length > 0) {
    check.fail({
      at: list,
      rule: 'listPolicies.2',
      observed: 'a walk while items were added between pages was not stable',
      details: [
        ...(duplicates.length > 0 ? [`seen twice: ${duplicates.slice(0, 5).join(', ')}`] : []),
        ...(skipped.length > 0 ? [`existed before the walk and were skipped: ${skipped.slice(0, 5).join(', ')}`] : []),
      ],
    });
  }
}

/** Creates a policy; one refused after another of the same name was created breaks "unique in intent but not enforced". */
async function createAgain(ctx: KitContext, policies: Crud, check: Check<Rule>, body: Json, sameName: boolean) {
  try {
    return await ctx.create(policies, check, body);
  } catch (error) {
    const [rule] = schemaRule('/properties/name/description', /not enforced/);
    if (!sameName || !rule || !(error instanceof ContractViolation)) throw error;
    const stated = check.found({ rule, observed: `a second policy named ${JSON.stringify(body.name)} was refused` });
    check.failAll({ at: error.operation, found: [...stated, ...error.violations], exchange: error.judged });
  }
}
