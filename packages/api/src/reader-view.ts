// The document as a reader of what the service sends sees it, following the Versioning section:
// within v1 the service may add fields to responses and events and values to their enums, so a
// client built on this version must accept both. Derived from the bundle, never redeclared: the
// same schemas with `additionalProperties: false` / `unevaluatedProperties: false` dropped and
// each `enum` widened to the JSON type of its values. Everything else (types, formats, bounds,
// patterns, `required`, `const`) is still checked, so a malformed body is still refused.
import type { OpenApiDocument } from './document.ts';

const JSON_TYPE = (value: unknown) => (value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value);

/** A deep copy of `doc` relaxed for readers; `if` conditions stay as they are, since widening one would change which `then` applies. */
export function readerView(doc: OpenApiDocument): OpenApiDocument {
  const relax = (node: unknown, inCondition: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => relax(item, inCondition));
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && value === false) continue;
      if (key === 'enum' && !inCondition && Array.isArray(value)) {
        if (!('type' in node)) out.type = [...new Set(value.map(JSON_TYPE))];
        continue;
      }
      out[key] = relax(value, inCondition || key === 'if');
    }
    return out;
  };
  return relax(doc, false) as OpenApiDocument;
}
