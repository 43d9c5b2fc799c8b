// The rules stated in the description of the schema an invalid part of a body is in (the property
// the part's path names, through `$ref`s), among those a check judges: what an accepted invalid
// body breaks beyond the schema itself.
import type { OpenApiDocument } from '../../../../lib/document.ts';
import { CATALOGUE, type RuleId } from '../rules/catalogue.ts';

type Node = { $ref?: string; properties?: Record<string, Node>; items?: Node } | undefined;

function at(doc: OpenApiDocument, pointer: string): Node {
  let node: unknown = doc;
  for (const segment of pointer.replace(/^#\//, '').split('/'))
    node = (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Node;
}

/** The judged rules of the description of the schema at `path` (an instance path) inside the schema at `schemaPointer`. */
export function describedRules(doc: OpenApiDocument, schemaPointer: string, path: string, judged: readonly string[]): RuleId[] {
  let where = schemaPointer;
  let node = at(doc, where);
  const follow = () => {
    while (node?.$ref) {
      where = node.$ref;
      node = at(doc, where);
    }
  };
  for (const segment of path.split('/').filter((s) => s !== '')) {
    follow();
    where = /^\d+$/.test(segment) ? `${where}/items` : `${where}/properties/${segment}`;
    node = /^\d+$/.test(segment) ? node?.items : node?.properties?.[segment];
    if (!node) return [];
  }
  follow();
  const description = `${where.replace(/^#/, '')}/description`;
  return CATALOGUE.filter((entry) => entry.at === description && judged.includes(entry.id)).map((entry) => entry.id as RuleId);
}

/** The rules stated at the description `at` (a pointer without `#`) whose sentence matches `pattern`. */
export const stated = (at: string, pattern: RegExp): RuleId[] =>
  CATALOGUE.filter((entry) => entry.at === at && pattern.test(entry.text)).map((entry) => entry.id as RuleId);
