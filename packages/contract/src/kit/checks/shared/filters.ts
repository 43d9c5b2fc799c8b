// Filters judged on real items: every item a filtered list returns matches the filter, and no item
// that matches is left out, each failure naming where the document states what the filter keeps.

import type { KitContext } from '../../context.ts';
import type { AnyCheck } from '../../failure.ts';
import { type StatedRule, statedFor, statedOfParam } from '../../rules/stated.ts';
import { transitionsOf } from '../../semantics.ts';
import { type OperationModel, schemaAt } from '../../spec.ts';
import { diversify } from './state-machine.ts';
import { isCrud } from './stateful.ts';

/**
 * Generated filter values rarely match anything, and a target where every item looks alike hides a
 * filter it ignores. So the kit first makes the items differ (states, severities, ...), then
 * filters by each value present on the first page (and each a boolean or enumerated filter can take): only
 * matches come back, and no match is left out.
 */
export async function filterByExistingValues(ctx: KitContext, op: OperationModel, check: AnyCheck, cases: number): Promise<void> {
  const resource = ctx.resourceOf(op);
  if (isCrud(resource)) await diversify(ctx, resource, transitionsOf(ctx.model, resource.update), check, cases);
  const all = await ctx.send(op, { query: { limit: '100' } });
  check.conform(op, all, { statuses: [200] }, 'the first page, to pick filter values from');
  const items = (all.json as { data: Record<string, unknown>[] }).data;
  for (const param of op.params.filter((p) => p.in === 'query')) {
    const present = items
      .flatMap((item) => filteredValues(item, param.name) ?? [])
      .filter((value) => ['string', 'boolean', 'number'].includes(typeof value))
      .map(String);
    // A value no item has yet shows a filter that is ignored when every item looks alike (all enabled).
    const values = [...new Set([...present, ...declaredValues(ctx, param.pointer)])];
    for (const value of values.slice(0, Math.min(MAX_FILTER_VALUES, cases))) {
      const query = { [param.name]: value };
      const filtered = await ctx.send(op, { query: { ...query, limit: '100' } });
      check.conform(op, filtered, { statuses: [200] }, `filter ${param.name} by a value`);
      filtersHold(op, check, query, filtered.json);
      const found = new Set((filtered.json as { data: { id?: unknown }[] }).data.map((item) => item.id));
      const missed = items.find((item) => filteredValues(item, param.name)?.map(String).includes(value) && !found.has(item.id));
      if (missed && found.size < 100) {
        const message = `filter ${param.name}=${value} left out ${String(missed.id)}, which has that value`;
        check.fail({ at: op, rule: filterRules(op, param.name), observed: message });
      }
    }
  }
}

const MAX_FILTER_VALUES = 6;

/** Every value a boolean or enumerated parameter can take, as query text. */
function declaredValues(ctx: KitContext, pointer: string): string[] {
  const schema = schemaAt(ctx.model.doc, pointer);
  return schema.type === 'boolean' ? ['true', 'false'] : Array.isArray(schema.enum) ? schema.enum.map(String) : [];
}

/** What a filter is judged on: the item's property of its name, or the list its plural names (`event`: `events`). */
function filteredValues(item: Record<string, unknown>, name: string): unknown[] | undefined {
  if (name in item) return [item[name]];
  const many = item[`${name}s`];
  return Array.isArray(many) ? many : undefined;
}

/** Where the document states what a filter keeps: the parameter's own description and the operation's. */
const filterRules = (op: OperationModel, name: string): StatedRule[] => [
  ...statedOfParam(op, name.toLowerCase(), /^Only/),
  ...statedFor(op, /^Filter with/),
];
/** A query parameter named like an item property is a filter: every item returned must match it. */
export function filtersHold(op: OperationModel, check: AnyCheck, query: Record<string, string>, json: unknown): void {
  const items = (json as { data?: Record<string, unknown>[] } | undefined)?.data;
  if (!Array.isArray(items)) return;
  for (const item of items) {
    for (const [name, value] of Object.entries(query)) {
      const values = filteredValues(item, name);
      if (!values || values.map(String).includes(value)) continue;
      const shown = name in item ? name : `${name}s`;
      const message = `filter ${name}=${value} returned an item with ${shown}=${JSON.stringify(item[shown])}`;
      const details = [JSON.stringify(item).slice(0, 300)];
      check.fail({ at: op, rule: filterRules(op, name), observed: message, details });
    }
  }
}
