// The rules stated where the document describes a part of a body (the property a path names and
// the schemas it refers to), among those a check judges: what a body breaks beyond its schema, be
// it an accepted invalid request or a delivery carrying a wrong value.
import type { OpenApiDocument } from '../../../../lib/document.ts';
import { CATALOGUE, type RuleId } from '../rules/catalogue.ts';

type Node = { $ref?: string; properties?: Record<string, Node>; items?: Node } | undefined;

function at(doc: OpenApiDocument, pointer: string): Node {
  let node: unknown = doc;
  for (const segment of pointer.replace(/^#\//, '').split('/'))
    node = (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Node;
}

/**
 * The judged rules described for the part at `path` (an instance path) of the schema at
 * `schemaPointer`: the description beside the property and those of the schemas it refers to.
 */
export function describedRules(doc: OpenApiDocument, schemaPointer: string, path: string, judged: readonly string[]): RuleId[] {
  let where = schemaPointer;
  let node = at(doc, where);
  const places: string[] = [];
  const follow = () => {
    places.push(where);
    while (node?.$ref) {
      where = node.$ref;
      node = at(doc, where);
      places.push(where);
    }
  };
  for (const segment of path.split('/').filter((s) => s !== '')) {
    follow();
    places.length = 0;
    where = /^\d+$/.test(segment) ? `${where}/items` : `${where}/properties/${segment}`;
    node = /^\d+$/.test(segment) ? node?.items : node?.properties?.[segment];
    if (!node) return [];
  }
  follow();
  const descriptions = new Set(places.map((place) => `${place.replace(/^#/, '')}/description`));
  return CATALOGUE.filter((entry) => descriptions.has(entry.at) && judged.includes(entry.id)).map((entry) => entry.id as RuleId);
}

/** The rules stated at the description `at` (a pointer without `#`) whose sentence matches `pattern`. */
export const stated = (at: string, pattern: RegExp): RuleId[] =>
  CATALOGUE.filter((entry) => entry.at === at && pattern.test(entry.text)).map((entry) => entry.id as RuleId);
