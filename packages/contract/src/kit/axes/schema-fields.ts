// The fields of an operation's request body schema as the document states them, with `$ref`,
// `allOf` and nullable `oneOf` followed: what the boundary axes are derived from.
import { type OpenApiDocument, resolveRef, unescapePointer } from 'secmon-api/src/document';
import type { OperationModel } from '../spec.ts';

export type Schema = Record<string, unknown>;

export interface BodySchema {
  /** The component the body is (`PolicyWrite`), or the operation id when it is inline. */
  name: string;
  schema: Schema;
  fields: { name: string; schema: Schema }[];
}

/** A schema with its `$ref` followed, `allOf` merged and a `oneOf` of one type and `null` narrowed to that type. */
export function flatten(doc: OpenApiDocument, node: unknown): Schema {
  const schema = resolveRef<Schema>(doc, node as Schema);
  const merged: Schema = { ...schema };
  delete merged.allOf;
  for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
    const flat = flatten(doc, part);
    // Conditional parts (`if`/`then`) narrow nothing a boundary is read from.
    if (!('if' in flat)) Object.assign(merged, flat, merged);
  }
  const branches = (schema.oneOf as unknown[] | undefined)?.map((branch) => flatten(doc, branch));
  const typed = branches?.filter((branch) => branch.type !== 'null');
  if (branches && typed?.length === 1 && branches.length === 2) return { ...typed[0], nullable: true };
  return merged;
}

/** The body schema of an operation, or undefined when it takes no JSON body. */
export function bodySchema(doc: OpenApiDocument, op: OperationModel): BodySchema | undefined {
  if (!op.body || !/json/i.test(op.body.mediaType)) return undefined;
  const raw = nodeAt(doc, op.body.pointer);
  const ref = (raw as { $ref?: string }).$ref ?? '';
  const named = /#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
  const schema = flatten(doc, raw);
  const properties = (schema.properties as Record<string, unknown> | undefined) ?? {};
  return {
    name: named ?? op.operationId,
    schema,
    fields: Object.entries(properties).map(([name, node]) => ({ name, schema: flatten(doc, node) })),
  };
}

/** The node at a JSON pointer, with `$ref`s followed on the way but not at the node itself. */
function nodeAt(doc: OpenApiDocument, pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .map(unescapePointer)
    .reduce<unknown>((node, key) => (resolveRef<Schema>(doc, node as Schema) as Record<string, unknown>)[key], doc);
}
