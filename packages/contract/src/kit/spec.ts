// The kit's view of the document: every operation and webhook with the JSON pointers of its
// parameter, body, response and header schemas, and the resources the CRUD paths describe.
// Everything the checks do is derived from this model, so a change to the spec changes the kit.
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  escapePointer,
  type HttpMethod,
  listOperations,
  listWebhookOperations,
  type OpenApiDocument,
  resolveRef,
} from 'secmon-api/src/document';

export interface ParamModel {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer of the parameter's schema in the bundle. */
  pointer: string;
}

export interface HeaderModel {
  name: string;
  required: boolean;
  pointer: string;
}

export interface ResponseModel {
  status: string;
  /** JSON pointer of the response object (a shared one under components when it is a `$ref`). */
  pointer: string;
  headers: HeaderModel[];
  /** Media type → JSON pointer of its schema. Empty when the response has no body. */
  content: Map<string, string>;
}

export type OperationKind = 'list' | 'create' | 'read' | 'update' | 'delete' | 'unknown';

export interface OperationModel {
  operationId: string;
  method: HttpMethod;
  path: string;
  /** `createPolicy (POST /v1/policies)`: how every report names the operation. */
  label: string;
  /** Scopes the operation's security requirement asks for (`read`, `write`). */
  scopes: string[];
  params: ParamModel[];
  body?: { mediaType: string; pointer: string; required: boolean };
  responses: Map<string, ResponseModel>;
  kind: OperationKind;
  /** The collection the path belongs to (`policies`), when the path is a CRUD path. */
  resource?: string;
}

export interface ResourceModel {
  name: string;
  collectionPath: string;
  itemPath: string;
  list?: OperationModel;
  create?: OperationModel;
  read?: OperationModel;
  update?: OperationModel;
  delete?: OperationModel;
  /** `$ref` of the id schema (the item's `id` property), to recognise references to this resource. */
  idRef?: string;
}

export interface WebhookModel {
  event: string;
  operationId: string;
  label: string;
  bodyPointer: string;
  headers: ParamModel[];
}

export interface ContractModel {
  doc: OpenApiDocument;
  operations: OperationModel[];
  resources: ResourceModel[];
  webhooks: WebhookModel[];
}

const COLLECTION = /^\/v\d+\/([a-z][a-z0-9_-]*)$/;
const ITEM = /^\/v\d+\/([a-z][a-z0-9_-]*)\/\{[A-Za-z_]+\}$/;

export function buildModel(doc: OpenApiDocument): ContractModel {
  const operations = listOperations(doc).map(({ path, method, operation }) => operationModel(doc, path, method, operation));
  const resources = new Map<string, ResourceModel>();
  for (const op of operations) {
    if (!op.resource) continue;
    const resource = resources.get(op.resource) ?? {
      name: op.resource,
      collectionPath: '',
      itemPath: '',
    };
    resources.set(op.resource, resource);
    if (op.kind === 'list' || op.kind === 'create') resource.collectionPath = op.path;
    else resource.itemPath = op.path;
    if (op.kind !== 'unknown') resource[op.kind] = op;
  }
  for (const resource of resources.values()) resource.idRef = idRefOf(doc, resource);
  const webhooks = listWebhookOperations(doc).map(({ path, method, operation }) => webhookModel(doc, path, method, operation));
  return { doc, operations, resources: [...resources.values()], webhooks };
}

function operationModel(doc: OpenApiDocument, path: string, method: HttpMethod, operation: OpenAPIV3_1.OperationObject): OperationModel {
  const opPointer = `#/paths/${escapePointer(path)}/${method}`;
  const pathItem = resolveRef<OpenAPIV3_1.PathItemObject>(doc, doc.paths?.[path] ?? {});
  const params = [
    ...paramsOf(doc, pathItem.parameters, `#/paths/${escapePointer(path)}/parameters`),
    ...paramsOf(doc, operation.parameters, `${opPointer}/parameters`),
  ];
  const security = operation.security ?? doc.security ?? [];
  const scopes = [...new Set(security.flatMap((requirement) => Object.values(requirement).flat()))];
  const [bodyPointer, requestBody] = follow<OpenAPIV3_1.RequestBodyObject>(doc, `${opPointer}/requestBody`, operation.requestBody);
  const bodyEntry = requestBody ? Object.keys(requestBody.content ?? {})[0] : undefined;
  const responses = new Map<string, ResponseModel>();
  for (const [status, raw] of Object.entries(operation.responses ?? {})) {
    responses.set(status, responseModel(doc, status, `${opPointer}/responses/${status}`, raw));
  }
  const collection = COLLECTION.exec(path);
  const item = ITEM.exec(path);
  const kind: OperationKind =
    collection && method === 'get'
      ? 'list'
      : collection && method === 'post'
        ? 'create'
        : item && method === 'get'
          ? 'read'
          : item && method === 'put'
            ? 'update'
            : item && method === 'delete'
              ? 'delete'
              : 'unknown';
  const operationId = operation.operationId ?? `${method} ${path}`;
  return {
    operationId,
    method,
    path,
    label: `${operationId} (${method.toUpperCase()} ${path})`,
    scopes,
    params,
    ...(requestBody && bodyEntry
      ? {
          body: {
            mediaType: bodyEntry,
            pointer: `${bodyPointer}/content/${escapePointer(bodyEntry)}/schema`,
            required: requestBody.required === true,
          },
        }
      : {}),
    responses,
    kind,
    ...(kind === 'unknown' ? {} : { resource: (collection ?? item)![1]! }),
  };
}

function paramsOf(doc: OpenApiDocument, list: unknown[] | undefined, pointer: string): ParamModel[] {
  return (list ?? []).map((raw, index) => {
    const [at, param] = follow<OpenAPIV3_1.ParameterObject>(doc, `${pointer}/${index}`, raw);
    return {
      name: param!.name,
      in: param!.in as ParamModel['in'],
      required: param!.required === true,
      pointer: `${at}/schema`,
    };
  });
}

function responseModel(doc: OpenApiDocument, status: string, pointer: string, raw: unknown): ResponseModel {
  const [at, response] = follow<OpenAPIV3_1.ResponseObject>(doc, pointer, raw);
  const headers = Object.entries(response?.headers ?? {}).map(([name, header]) => {
    const [headerAt, resolved] = follow<OpenAPIV3_1.HeaderObject>(doc, `${at}/headers/${escapePointer(name)}`, header);
    return { name, required: resolved?.required === true, pointer: `${headerAt}/schema` };
  });
  const content = new Map(
    Object.keys(response?.content ?? {}).map((mediaType) => [mediaType, `${at}/content/${escapePointer(mediaType)}/schema`]),
  );
  return { status, pointer: at, headers, content };
}

function webhookModel(doc: OpenApiDocument, event: string, method: HttpMethod, operation: OpenAPIV3_1.OperationObject): WebhookModel {
  const opPointer = `#/webhooks/${escapePointer(event)}/${method}`;
  const [bodyPointer, body] = follow<OpenAPIV3_1.RequestBodyObject>(doc, `${opPointer}/requestBody`, operation.requestBody);
  const mediaType = Object.keys(body?.content ?? {})[0] ?? 'application/json';
  const operationId = operation.operationId ?? event;
  return {
    event,
    operationId,
    label: `${operationId} (webhook ${event})`,
    bodyPointer: `${bodyPointer}/content/${escapePointer(mediaType)}/schema`,
    headers: paramsOf(doc, operation.parameters, `${opPointer}/parameters`).filter((param) => param.in === 'header'),
  };
}

/** The `$ref` of the `id` property of the resource's representation (its read response). */
function idRefOf(doc: OpenApiDocument, resource: ResourceModel): string | undefined {
  const pointer = resource.read?.responses.get('200')?.content.get('application/json');
  if (!pointer) return undefined;
  const schema = schemaAt(doc, pointer) as { properties?: Record<string, { $ref?: string }> };
  return schema.properties?.id?.$ref;
}

/** The schema node at a JSON pointer, with `$ref`s along the way followed. */
export function schemaAt(doc: OpenApiDocument, pointer: string): Record<string, unknown> {
  return resolveRef<Record<string, unknown>>(doc, { $ref: pointer });
}

function follow<T>(doc: OpenApiDocument, pointer: string, value: unknown): [string, T | undefined] {
  let at = pointer;
  let current = value as { $ref?: string } | undefined;
  while (current && typeof current.$ref === 'string') {
    at = current.$ref;
    current = resolveRef(doc, current as { $ref: string });
  }
  return [at, current as T | undefined];
}

/** The 2xx statuses an operation documents, lowest first. */
export function successStatuses(op: OperationModel): number[] {
  return [...op.responses.keys()]
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number)
    .sort();
}
