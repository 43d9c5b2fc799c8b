// The shapes the breaking-change rules compare: operations (API and webhook) matched by method
// and path or event type, with their effective parameters and security, and the schema pairs
// reachable from them, each with the direction its data travels and who reads it. No maintained
// npm library diffs OpenAPI 3.1 `webhooks` (oasdiff is Go; the npm openapi-diff packages stop at
// 3.0 and ignore webhooks), so the rules are ours; catalogue.ts maps each to oasdiff's.
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, resolveRef, type OpenApiDocument } from '../../lib/document.ts';

/** Who a change concerns: API clients, or webhook receivers. */
export type Audience = 'clients' | 'receivers';

export interface Change {
  /** The rule that found it (for example `enum-value-removed`); catalogue.ts lists them. */
  rule: string;
  /** JSON pointer into the released document (removals) or the revision, both bundles. */
  pointer: string;
  message: string;
  /** What the released document says, and what the revision says, when there is a value to show. */
  before?: unknown;
  after?: unknown;
  audience: Audience[];
}

/**
 * `to-service`: what the service receives (API requests, and what receivers answer a webhook
 * with); narrowing it refuses what used to work.
 * `from-service`: what the service sends (API responses, webhook deliveries); widening or
 * removing it breaks whoever parses it.
 */
export type Direction = 'to-service' | 'from-service';

export type Schema = OpenAPIV3_1.SchemaObject & { const?: unknown };
type Parameter = OpenAPIV3_1.ParameterObject;
type Responses = Record<string, OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject>;

export interface LocatedParameter {
  parameter: Parameter;
  pointer: string;
}

/** One operation in one document, with what it inherits from its path item and the document. */
export interface OperationSide {
  operation: OpenAPIV3_1.OperationObject;
  pointer: string;
  /** Path-item parameters overridden by operation ones, keyed by parameterKey. */
  parameters: Map<string, LocatedParameter>;
  /** The alternatives (any one suffices); `[{}]` when none is needed. */
  security: OpenAPIV3_1.SecurityRequirementObject[];
  securityPointer: string;
}

export interface MatchedOperation {
  /** `GET /v1/policies` or `webhook finding.created`. */
  label: string;
  kind: 'api' | 'webhook';
  audience: Audience;
  /** Where the caller's request travels: API clients send to the service, webhooks come from it. */
  sent: Direction;
  base: OperationSide;
  revision: OperationSide | undefined;
}

export interface Comparison {
  base: OpenApiDocument;
  revision: OpenApiDocument;
  /** Operations of the released document, matched in the revision (or not). */
  operations: MatchedOperation[];
  /** Operations only the revision has. */
  added: MatchedOperation[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/**
 * How parameters are matched: location and name, header names case-insensitive, and path
 * parameters by their place in the path (renaming `{id}` changes nothing on the wire).
 */
const parameterKey = (parameter: Parameter, path: string) => {
  if (parameter.in === 'path') return `path #${[...path.matchAll(/\{([^}]*)\}/g)].findIndex((m) => m[1] === parameter.name)}`;
  return `${parameter.in} ${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;
};

function sidesOf(doc: OpenApiDocument) {
  const sections = [
    ['paths', 'api', doc.paths ?? {}],
    ['webhooks', 'webhook', doc.webhooks ?? {}],
  ] as const;
  const sides = new Map<string, { label: string; kind: 'api' | 'webhook'; side: OperationSide }>();
  for (const [section, kind, items] of sections) {
    for (const [path, pathItem] of Object.entries(items as Record<string, OpenAPIV3_1.PathItemObject>)) {
      const item = resolveRef<OpenAPIV3_1.PathItemObject>(doc, pathItem);
      const itemPointer = `#/${section}/${escapePointer(path)}`;
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const pointer = `${itemPointer}/${method}`;
        const parameters = new Map<string, LocatedParameter>();
        const collect = (list: unknown[] | undefined, at: string) =>
          (list ?? []).forEach((parameter, i) => {
            const resolved = resolveRef<Parameter>(doc, parameter as Parameter);
            const located = isRef(parameter) ? parameter.$ref : `${at}/parameters/${i}`;
            parameters.set(parameterKey(resolved, path), { parameter: resolved, pointer: located });
          });
        collect(item.parameters, itemPointer);
        collect(operation.parameters, pointer);
        const security = operation.security ?? doc.security ?? [];
        // Path parameter names are placeholders: /things/{id} and /things/{thingId} are one path.
        const key = `${section} ${method} ${kind === 'api' ? path.replace(/\{[^}]*\}/g, '{}') : path}`;
        sides.set(key, {
          label: kind === 'api' ? `${method.toUpperCase()} ${path}` : `webhook ${path}`,
          kind,
          side: {
            operation,
            pointer,
            parameters,
            security: security.length === 0 ? [{}] : security,
            securityPointer: operation.security ? `${pointer}/security` : '#/security',
          },
        });
      }
    }
  }
  return sides;
}

export function compareDocuments(base: OpenApiDocument, revision: OpenApiDocument): Comparison {
  const [before, after] = [sidesOf(base), sidesOf(revision)];
  const matched = ({ label, kind, side }: { label: string; kind: 'api' | 'webhook'; side: OperationSide }, other?: OperationSide): MatchedOperation => ({
    label,
    kind,
    audience: kind === 'api' ? 'clients' : 'receivers',
    sent: kind === 'api' ? 'to-service' : 'from-service',
    base: side,
    revision: other,
  });
  return {
    base,
    revision,
    operations: [...before].map(([key, op]) => matched(op, after.get(key)?.side)),
    added: [...after].filter(([key]) => !before.has(key)).map(([, op]) => matched(op, op.side)),
  };
}

/** The operations present in both documents, with their revision side. */
export const keptOperations = (comparison: Comparison) =>
  comparison.operations.filter((op): op is MatchedOperation & { revision: OperationSide } => op.revision !== undefined);

export interface ParameterPair {
  key: string;
  /** `query limit`, `header X-Service-Delivery`, as the released document names it if it has it. */
  name: string;
  base: LocatedParameter | undefined;
  revision: LocatedParameter | undefined;
}

/** Every parameter of a kept operation, in either document, matched by parameterKey. */
export function parametersOf(op: MatchedOperation & { revision: OperationSide }): ParameterPair[] {
  const keys = new Set([...op.base.parameters.keys(), ...op.revision.parameters.keys()]);
  return [...keys].map((key) => {
    const [base, revision] = [op.base.parameters.get(key), op.revision.parameters.get(key)];
    const { parameter } = (base ?? revision)!;
    return { key, name: `${parameter.in} ${parameter.name}`, base, revision };
  });
}

/** `404` is still documented when the revision documents `404` or `4XX`. */
export function matchingStatus(responses: Responses | undefined, status: string): string | undefined {
  if (!responses) return undefined;
  if (status in responses) return status;
  if (!/^\d{3}$/.test(status)) return undefined;
  return Object.keys(responses).find((key) => /^[1-5]xx$/i.test(key) && key[0] === status[0]);
}

export interface ResponsePair {
  status: string;
  base: OpenAPIV3_1.ResponseObject;
  /** The revision's response for that status (itself or its range), if any. */
  revision: OpenAPIV3_1.ResponseObject | undefined;
  basePointer: string;
  revisionPointer: string | undefined;
}

export function responsesOf(comparison: Comparison, op: MatchedOperation & { revision: OperationSide }): ResponsePair[] {
  const after = op.revision.operation.responses as Responses | undefined;
  return Object.entries((op.base.operation.responses ?? {}) as Responses).map(([status, response]) => {
    const match = matchingStatus(after, status);
    return {
      status,
      base: resolveRef<OpenAPIV3_1.ResponseObject>(comparison.base, response),
      revision: match === undefined ? undefined : resolveRef<OpenAPIV3_1.ResponseObject>(comparison.revision, after![match]!),
      basePointer: `${op.base.pointer}/responses/${status}`,
      revisionPointer: match === undefined ? undefined : `${op.revision.pointer}/responses/${match}`,
    };
  });
}

export const requestBodyOf = (doc: OpenApiDocument, side: OperationSide | undefined) =>
  side?.operation.requestBody ? resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, side.operation.requestBody) : undefined;

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
    pairs: before.flatMap((key, i) => (after.includes(key) ? [{ base: base[i], revision: revision[after.indexOf(key)], index: after.indexOf(key) }] : [])),
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
      Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, resolveRef<Schema>(doc, property as Schema)]));
    pairs.push({ base: bs, revision: rs, baseProperties: properties(base, bs), revisionProperties: properties(revision, rs), pointer: at, direction, audience });
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
  const visitContent = (b: OpenAPIV3_1.ResponseObject['content'], r: OpenAPIV3_1.ResponseObject['content'], pointer: string, direction: Direction, audience: Audience) => {
    for (const [media, content] of Object.entries(b ?? {})) {
      visit(content.schema, r?.[media]?.schema, `${pointer}/content/${escapePointer(media)}/schema`, direction, audience);
    }
  };

  for (const op of keptOperations(comparison)) {
    for (const pair of parametersOf(op)) {
      if (pair.base && pair.revision) visit(pair.base.parameter.schema, pair.revision.parameter.schema, `${pair.revision.pointer}/schema`, op.sent, op.audience);
    }
    visitContent(requestBodyOf(base, op.base)?.content, requestBodyOf(revision, op.revision)?.content, `${op.revision.pointer}/requestBody`, op.sent, op.audience);
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

type Headers = OpenAPIV3_1.ResponseObject['headers'];

/** A response header by case-insensitive name, as [its name in `headers`, its value]. */
export function headerNamed(headers: Headers, name: string) {
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase());
}

function isRef(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

/** The JSON types a schema allows (`type` as a string or a list), or undefined for any. */
export function typesOf(schema: Schema): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set<string>(Array.isArray(schema.type) ? schema.type : [schema.type]);
}
