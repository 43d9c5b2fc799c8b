// A valid body that differs from another only below its top level: what tells an implementation
// comparing bodies member by member at the top from one comparing them whole.
import type { KitContext } from '../context.ts';
import type { OperationModel } from '../spec.ts';

type Tree = Record<string, unknown> | unknown[];
const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null;

/** The paths of `value`'s leaves below its top level (`/rule/threshold`, `/frameworks/0/control`). */
function nestedLeaves(value: unknown, at = ''): string[] {
  if (!isTree(value)) return at.split('/').length > 2 ? [at] : [];
  return Object.entries(value).flatMap(([name, child]) => nestedLeaves(child, `${at}/${name}`));
}

export const hasNestedLeaves = (value: unknown) => nestedLeaves(value).length > 0;

const leafAt = (value: unknown, path: string) =>
  path
    .split('/')
    .slice(1)
    .reduce<unknown>((node, name) => (isTree(node) ? (node as Record<string, unknown>)[name] : undefined), value);

/**
 * `first` with one nested leaf taken from another generated valid body, still valid: a body that
 * differs from it only below the top level; undefined when the schema has no such leaf to vary.
 */
export async function nestedVariant(
  ctx: KitContext,
  op: OperationModel,
  first: unknown,
): Promise<{ body: unknown; at: string } | undefined> {
  if (!op.body) return undefined;
  for (const donor of await ctx.validBodies(op, 8))
    for (const at of nestedLeaves(first)) {
      const value = leafAt(donor, at);
      if (value === undefined || JSON.stringify(value) === JSON.stringify(leafAt(first, at))) continue;
      const body = structuredClone(first) as Tree;
      const names = at.split('/').slice(1);
      const parent = names.slice(0, -1).reduce<unknown>((node, name) => (node as Record<string, unknown>)[name], body) as Record<
        string,
        unknown
      >;
      parent[names.at(-1)!] = value;
      if (ctx.validator.validate(op.body.pointer, body).valid) return { body, at };
    }
  return undefined;
}
