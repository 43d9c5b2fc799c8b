// The shapes the breaking-change rules compare: operations (API and webhook) matched by method
// and path or event type, with their effective parameters, responses and security, each with the
// direction its data travels and who reads it (schema-pairs.ts pairs their schemas). No maintained
// npm library diffs OpenAPI 3.1 `webhooks` (oasdiff is Go; the npm openapi-diff packages stop at
// 3.0 and ignore webhooks), so the rules are ours; catalogue.ts maps each to oasdiff's.
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, type OpenApiDocument, resolveRef } from '../../packages/api/src/document.ts';

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
  const matched = (
    { label, kind, side }: { label: string; kind: 'api' | 'webhook'; side: OperationSide },
    other?: OperationSide,
  ): MatchedOperation => ({
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

type Headers = OpenAPIV3_1.ResponseObject['headers'];

/** A response header by case-insensitive name, as [its name in `headers`, its value]. */
export function headerNamed(headers: Headers, name: string) {
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase());
}

export function isRef(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}
