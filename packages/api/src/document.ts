// The bundled OpenAPI document (generated/openapi.json, made by `npm run bundle`) and helpers to
// walk it. Everything at run time (server validation, event validation, the contract kit) reads it
// from here. A JSON module rather than a file read, so the published packages, which esbuild
// bundles, carry the document inside their code and this module runs in a browser too.
import type { OpenAPIV3_1 } from 'openapi-types';
import bundled from '../../../generated/openapi.json' with { type: 'json' };

export type OpenApiDocument = OpenAPIV3_1.Document;

/** The parsed bundle. Callers get a deep copy so no one can mutate another's view. */
export function loadDocument(): OpenApiDocument {
  return structuredClone(bundled as unknown as OpenApiDocument);
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationRef {
  path: string;
  method: HttpMethod;
  operation: OpenAPIV3_1.OperationObject;
}

/** Every operation under `paths`, in document order. */
export function listOperations(doc: OpenApiDocument): OperationRef[] {
  return listIn(doc.paths ?? {});
}

/** Every webhook (event) operation, keyed by the webhook's name, which is its event type. */
export function listWebhookOperations(doc: OpenApiDocument): OperationRef[] {
  return listIn((doc.webhooks ?? {}) as Record<string, OpenAPIV3_1.PathItemObject>);
}

function listIn(items: Record<string, OpenAPIV3_1.PathItemObject | undefined>): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(items)) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (operation) out.push({ path, method, operation });
    }
  }
  return out;
}

/** A path of the document as a pattern, with the query parameters each of its methods documents. */
export interface OperationRoute {
  path: string;
  pattern: RegExp;
  /** Upper-case method → the names of the query parameters it documents. */
  methods: Map<string, Set<string>>;
}

/** One route per path of the document, for matching a request URL path to its operations. */
export function operationRoutes(doc: OpenApiDocument): OperationRoute[] {
  const routes = new Map<string, OperationRoute>();
  for (const { path, method, operation } of listOperations(doc)) {
    const pathParameters = doc.paths?.[path]?.parameters ?? [];
    const query = [...pathParameters, ...(operation.parameters ?? [])]
      .map((parameter) => resolveRef<OpenAPIV3_1.ParameterObject>(doc, parameter))
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name);
    let route = routes.get(path);
    if (!route) {
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
      route = { path, pattern: new RegExp(`^${source}$`), methods: new Map() };
      routes.set(path, route);
    }
    route.methods.set(method.toUpperCase(), new Set(query));
  }
  return [...routes.values()];
}

export const findRoute = (routes: OperationRoute[], urlPath: string): OperationRoute | undefined =>
  routes.find((route) => route.pattern.test(urlPath));

/** Follows a local `$ref` (`#/components/...`) inside the document. */
export function resolveRef<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  let current: unknown = value;
  for (let hops = 0; isRef(current); hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .map(unescapePointer)
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc);
    if (current === undefined) throw new Error(`unresolved $ref ${String((value as { $ref: string }).$ref)}`);
  }
  return current as T;
}

function isRef(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

export const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
export const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

export interface MediaTypeRef {
  /** Human-readable location, for example `POST /v1/policies → 201 application/json`. */
  where: string;
  kind: 'request' | 'response';
  status?: string;
  mediaType: string;
  /** JSON pointer of the body schema in the bundled document, for `createSchemaValidator`. */
  schemaPointer: string;
  examples: { name: string; value: unknown }[];
}

/**
 * Every request and response body of every operation and webhook, with the JSON pointer of its
 * schema (following `$ref`s to shared responses) and its named examples resolved.
 */
export function listMediaTypes(doc: OpenApiDocument): MediaTypeRef[] {
  const out: MediaTypeRef[] = [];
  const sections = [
    ['paths', listOperations(doc)],
    ['webhooks', listWebhookOperations(doc)],
  ] as const;
  for (const [section, operations] of sections) {
    for (const { path, method, operation } of operations) {
      const label = `${method.toUpperCase()} ${path}`;
      const opPointer = `#/${section}/${escapePointer(path)}/${method}`;
      if (operation.requestBody) {
        const [pointer, body] = follow(doc, `${opPointer}/requestBody`, operation.requestBody);
        out.push(...mediaTypesOf(doc, body as OpenAPIV3_1.RequestBodyObject, pointer, `${label} request`, 'request'));
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const [pointer, resolved] = follow(doc, `${opPointer}/responses/${status}`, response);
        out.push(...mediaTypesOf(doc, resolved as OpenAPIV3_1.ResponseObject, pointer, `${label} → ${status}`, 'response', status));
      }
    }
  }
  return out;
}

function mediaTypesOf(
  doc: OpenApiDocument,
  holder: { content?: Record<string, OpenAPIV3_1.MediaTypeObject> },
  pointer: string,
  label: string,
  kind: MediaTypeRef['kind'],
  status?: string,
): MediaTypeRef[] {
  return Object.entries(holder.content ?? {}).map(([mediaType, media]) => ({
    where: `${label} ${mediaType}`,
    kind,
    ...(status === undefined ? {} : { status }),
    mediaType,
    schemaPointer: `${pointer}/content/${escapePointer(mediaType)}/schema`,
    examples: Object.entries(media.examples ?? {}).map(([name, example]) => ({
      name,
      value: resolveRef<OpenAPIV3_1.ExampleObject>(doc, example).value,
    })),
  }));
}

/** Resolves `value` if it is a `$ref`, returning the pointer where the resolved object lives. */
function follow(doc: OpenApiDocument, pointer: string, value: unknown): [string, unknown] {
  let current = value;
  let at = pointer;
  while (isRef(current)) {
    at = current.$ref;
    current = resolveRef(doc, current);
  }
  return [at, current];
}
