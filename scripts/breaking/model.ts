// The shapes the breaking-change rules compare: operations (API and webhook) matched by method
// and path or event type, and the schema pairs reachable from them, each with the direction its
// data travels. No maintained npm library diffs OpenAPI 3.1 `webhooks` (oasdiff is Go; the npm
// openapi-diff packages stop at 3.0 and ignore webhooks), so the rules are ours.
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, listOperations, listWebhookOperations, resolveRef, type OpenApiDocument } from '../../lib/document.ts';

export interface BreakingChange {
  /** The rule that found it (for example `enum-value-removed`). */
  rule: string;
  /** JSON pointer into the released document (removals) or the revision. */
  pointer: string;
  message: string;
}

/**
 * `to-service`: what clients send (request bodies, parameters); narrowing it rejects old clients.
 * `from-service`: what clients and webhook receivers get (responses, event bodies and headers);
 * removing or widening it breaks their parsing.
 */
export type Direction = 'to-service' | 'from-service';

export type Schema = OpenAPIV3_1.SchemaObject & { const?: unknown };

export interface MatchedOperation {
  /** `GET /v1/policies` or `webhook finding.created`. */
  label: string;
  kind: 'api' | 'webhook';
  base: OpenAPIV3_1.OperationObject;
  revision: OpenAPIV3_1.OperationObject | undefined;
  basePointer: string;
  revisionPointer: string;
}

export function operationsOf(base: OpenApiDocument, revision: OpenApiDocument): MatchedOperation[] {
  const index = (doc: OpenApiDocument) =>
    new Map(
      [
        ...listOperations(doc).map((op) => ({ ...op, kind: 'api' as const, section: 'paths' })),
        ...listWebhookOperations(doc).map((op) => ({ ...op, kind: 'webhook' as const, section: 'webhooks' })),
      ].map((op) => [
        `${op.section} ${op.method} ${op.path}`,
        {
          ...op,
          label: op.kind === 'api' ? `${op.method.toUpperCase()} ${op.path}` : `webhook ${op.path}`,
          pointer: `#/${op.section}/${escapePointer(op.path)}/${op.method}`,
        },
      ]),
    );
  const revisionOps = index(revision);
  return [...index(base)].map(([key, op]) => ({
    label: op.label,
    kind: op.kind,
    base: op.operation,
    revision: revisionOps.get(key)?.operation,
    basePointer: op.pointer,
    revisionPointer: revisionOps.get(key)?.pointer ?? op.pointer,
  }));
}

export interface ParameterPair {
  operation: MatchedOperation;
  /** `query limit`, `header x-service-signature`. */
  key: string;
  base: OpenAPIV3_1.ParameterObject;
  revision: OpenAPIV3_1.ParameterObject | undefined;
  pointer: string;
}

/** The parameters of matched operations, matched by location and (case-insensitive for headers) name. */
export function parametersOf(base: OpenApiDocument, revision: OpenApiDocument, op: MatchedOperation): ParameterPair[] {
  const byKey = (doc: OpenApiDocument, operation: OpenAPIV3_1.OperationObject | undefined, pointer: string) =>
    new Map(
      (operation?.parameters ?? []).map((parameter, i) => {
        const resolved = resolveRef<OpenAPIV3_1.ParameterObject>(doc, parameter);
        const at = '$ref' in parameter ? (parameter as { $ref: string }).$ref : `${pointer}/parameters/${i}`;
        return [parameterKey(resolved), { parameter: resolved, pointer: at }] as const;
      }),
    );
  const after = byKey(revision, op.revision, op.revisionPointer);
  return [...byKey(base, op.base, op.basePointer)].map(([key, { parameter, pointer }]) => ({
    operation: op,
    key,
    base: parameter,
    revision: after.get(key)?.parameter,
    pointer: after.get(key)?.pointer ?? pointer,
  }));
}

/** How parameters are matched: location and name, header names case-insensitive. */
export const parameterKey = (parameter: OpenAPIV3_1.ParameterObject) =>
  `${parameter.in} ${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;

export interface SchemaPair {
  base: Schema;
  revision: Schema;
  /** Where the revision's schema lives (after following `$ref`). */
  pointer: string;
  direction: Direction;
}

/**
 * Every pair of schemas reachable from operations present in both documents: request bodies and
 * API parameters travel to the service; responses, webhook bodies and webhook headers from it.
 * Pairs are visited once per (pointer, direction), so a shared component is reported once.
 */
export function schemaPairsOf(base: OpenApiDocument, revision: OpenApiDocument): SchemaPair[] {
  const pairs: SchemaPair[] = [];
  const seen = new Set<string>();
  const visit = (b: unknown, r: unknown, pointer: string, direction: Direction) => {
    if (b === undefined || r === undefined || typeof b === 'boolean' || typeof r === 'boolean') return;
    const at = isRef(r) ? r.$ref : pointer;
    const key = `${direction} ${at} ${isRef(b) ? b.$ref : ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    const bs = resolveRef<Schema>(base, b as Schema);
    const rs = resolveRef<Schema>(revision, r as Schema);
    pairs.push({ base: bs, revision: rs, pointer: at, direction });
    for (const [name, property] of Object.entries(bs.properties ?? {})) {
      visit(property, rs.properties?.[name], `${at}/properties/${escapePointer(name)}`, direction);
    }
    if ('items' in bs && 'items' in rs) visit(bs.items, rs.items, `${at}/items`, direction);
    for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
      (bs[combinator] ?? []).forEach((sub, i) => visit(sub, rs[combinator]?.[i], `${at}/${combinator}/${i}`, direction));
    }
    visit(bs.additionalProperties, rs.additionalProperties, `${at}/additionalProperties`, direction);
  };

  for (const op of operationsOf(base, revision)) {
    if (!op.revision) continue;
    const sent: Direction = op.kind === 'webhook' ? 'from-service' : 'to-service';
    const received: Direction = 'from-service';
    for (const pair of parametersOf(base, revision, op)) {
      if (pair.revision) visit(pair.base.schema, pair.revision.schema, `${pair.pointer}/schema`, sent);
    }
    const bodies = (operation: OpenAPIV3_1.OperationObject | undefined, doc: OpenApiDocument) =>
      operation?.requestBody ? resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody).content : undefined;
    const revisionBodies = bodies(op.revision, revision);
    for (const [media, content] of Object.entries(bodies(op.base, base) ?? {})) {
      visit(content.schema, revisionBodies?.[media]?.schema, `${op.revisionPointer}/requestBody/content/${escapePointer(media)}/schema`, sent);
    }
    // A webhook's responses are what receivers answer; the service reads only their status.
    if (op.kind === 'webhook') continue;
    for (const [status, response] of Object.entries(op.base.responses ?? {})) {
      const after = op.revision.responses?.[status];
      if (!after) continue;
      const b = resolveRef<OpenAPIV3_1.ResponseObject>(base, response);
      const r = resolveRef<OpenAPIV3_1.ResponseObject>(revision, after);
      for (const [media, content] of Object.entries(b.content ?? {})) {
        const pointer = `${op.revisionPointer}/responses/${status}/content/${escapePointer(media)}/schema`;
        visit(content.schema, r.content?.[media]?.schema, pointer, received);
      }
    }
  }
  return pairs;
}

function isRef(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

/** The JSON types a schema allows (`type` as a string or a list), or undefined for any. */
export function typesOf(schema: Schema): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set<string>(Array.isArray(schema.type) ? schema.type : [schema.type]);
}
