// The schema pairs the schema rules compare: every schema reachable from an operation present in
// both documents, matched across them, with the direction its data travels and who reads it.
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, type OpenApiDocument, resolveRef } from '../../packages/api/src/document.ts';
import {
  type Audience,
  type Comparison,
  type Direction,
  headerNamed,
  isRef,
  keptOperations,
  parametersOf,
  requestBodyOf,
  responsesOf,
  type Schema,
} from './model.ts';

export interface SchemaPair {
  base: Schema;
  revision: Schema;
  /** Their properties with `$ref`s followed, so rules can read readOnly and writeOnly. */
  baseProperties: Record<string, Schema>;
  revisionProperties: Record<string, Schema>;
  /** Where the revision's schema lives (after following `$ref`). */
  pointer: string;
  direction: Direction;
  audience: Audience;
}

/**
 * oneOf/anyOf/allOf members matched across documents: `$ref` members by their target, inline
 * ones by their type and their order among inline members of that type.
 */
export function matchMembers(base: unknown[] = [], revision: unknown[] = [], inherited: [unknown, unknown] = [undefined, undefined]) {
  // A member without a `type` has its parent's: spelling that type out in the member changes nothing.
  const keys = (members: unknown[], parentType: unknown) => {
    const seen = new Map<string, number>();
    return members.map((member) => {
      if (isRef(member)) return `$ref ${member.$ref}`;
      const type = JSON.stringify((member as Schema).type ?? parentType ?? null);
      const n = seen.get(type) ?? 0;
      seen.set(type, n + 1);
      return `inline ${type} ${n}`;
    });
  };
  const [before, after] = [keys(base, inherited[0]), keys(revision, inherited[1])];
  return {
    pairs: before.flatMap((key, i) =>
      after.includes(key) ? [{ base: base[i], revision: revision[after.indexOf(key)], index: after.indexOf(key) }] : [],
    ),
    removed: base.filter((_, i) => !after.includes(before[i]!)),
    added: revision.filter((_, i) => !before.includes(after[i]!)),
  };
}

/**
 * Every pair of schemas reachable from operations present in both documents: parameters and
 * request bodies travel the way the operation's request does (`sent`); API responses and their
 * headers from the service. A webhook's responses are what receivers answer, and the service
 * reads only their status, so their bodies are not compared. Pairs are visited once per
 * (pointer, direction, audience), so a shared component is reported once per reader.
 */
export function schemaPairsOf(comparison: Comparison): SchemaPair[] {
  const { base, revision } = comparison;
  const pairs: SchemaPair[] = [];
  const seen = new Set<string>();
  const visit = (b: unknown, r: unknown, pointer: string, direction: Direction, audience: Audience) => {
    if (b === undefined || r === undefined || typeof b === 'boolean' || typeof r === 'boolean') return;
    const at = isRef(r) ? r.$ref : pointer;
    const key = `${direction} ${audience} ${at} ${isRef(b) ? b.$ref : ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    const bs = resolveRef<Schema>(base, b as Schema);
    const rs = resolveRef<Schema>(revision, r as Schema);
    const properties = (doc: OpenApiDocument, schema: Schema) =>
      Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, resolveRef<Schema>(doc, property as Schema)]),
      );
    pairs.push({
      base: bs,
      revision: rs,
      baseProperties: properties(base, bs),
      revisionProperties: properties(revision, rs),
      pointer: at,
      direction,
      audience,
    });
    for (const [name, property] of Object.entries(bs.properties ?? {})) {
      visit(property, rs.properties?.[name], `${at}/properties/${escapePointer(name)}`, direction, audience);
    }
    if ('items' in bs && 'items' in rs) visit(bs.items, rs.items, `${at}/items`, direction, audience);
    for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
      for (const member of matchMembers(bs[combinator], rs[combinator], [bs.type, rs.type]).pairs) {
        visit(member.base, member.revision, `${at}/${combinator}/${member.index}`, direction, audience);
      }
    }
    visit(bs.additionalProperties, rs.additionalProperties, `${at}/additionalProperties`, direction, audience);
  };
  const visitContent = (
    b: OpenAPIV3_1.ResponseObject['content'],
    r: OpenAPIV3_1.ResponseObject['content'],
    pointer: string,
    direction: Direction,
    audience: Audience,
  ) => {
    for (const [media, content] of Object.entries(b ?? {})) {
      visit(content.schema, r?.[media]?.schema, `${pointer}/content/${escapePointer(media)}/schema`, direction, audience);
    }
  };

  for (const op of keptOperations(comparison)) {
    for (const pair of parametersOf(op)) {
      if (pair.base && pair.revision)
        visit(pair.base.parameter.schema, pair.revision.parameter.schema, `${pair.revision.pointer}/schema`, op.sent, op.audience);
    }
    visitContent(
      requestBodyOf(base, op.base)?.content,
      requestBodyOf(revision, op.revision)?.content,
      `${op.revision.pointer}/requestBody`,
      op.sent,
      op.audience,
    );
    if (op.kind === 'webhook') continue;
    for (const response of responsesOf(comparison, op)) {
      if (!response.revision) continue;
      visitContent(response.base.content, response.revision.content, response.revisionPointer!, 'from-service', op.audience);
      for (const [name, header] of Object.entries(response.base.headers ?? {})) {
        const after = headerNamed(response.revision.headers, name);
        if (!after) continue;
        const [bh, rh] = [resolveRef<OpenAPIV3_1.HeaderObject>(base, header), resolveRef<OpenAPIV3_1.HeaderObject>(revision, after[1])];
        visit(bh.schema, rh.schema, `${response.revisionPointer}/headers/${escapePointer(after[0])}/schema`, 'from-service', op.audience);
      }
    }
  }
  return pairs;
}

/** The JSON types a schema allows (`type` as a string or a list), or undefined for any. */
export function typesOf(schema: Schema): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set<string>(Array.isArray(schema.type) ? schema.type : [schema.type]);
}
