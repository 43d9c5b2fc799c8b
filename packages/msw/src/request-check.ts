// Every request the MSW handlers see is judged against the document before anything answers it,
// in the order the reference server judges: 401 (no bearer token), 404/405 (no such operation),
// 413, 415, malformed JSON, then one 400 naming every invalid part of the path, query, headers and
// body at once. A frontend that sends what the service would refuse gets the service's problem in
// its own tests. The schemas are the document's, checked by packages/api/src/schema-validator.ts (Ajv 2020).
import type { ErrorObject } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, listOperations, type OpenApiDocument, resolveRef } from 'secmon-api/src/document';
import { createSchemaValidator } from 'secmon-api/src/schema-validator';
import {
  BODY_LIMIT_BYTES,
  invalidPartsDetail,
  PAYLOAD_TOO_LARGE_DETAIL,
  type Problem,
  type ProblemDetail,
  problem,
  unknownQueryParameters,
} from '../../../common/problems.ts';
import { bearerToken } from '../../core/src/domain/credentials.ts';

/** What a valid request carries, as the handlers read it. */
export interface CheckedRequest {
  operationId: string;
  /** The documented path template, for example `/v1/policies/{id}`. */
  template: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export type Verdict = { ok: CheckedRequest } | { problem: Problem; headers?: Record<string, string> };

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  pointer: string;
  type: unknown;
}

interface Operation {
  id: string;
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  parameters: Parameter[];
  /** JSON pointer of the JSON request body's schema, if the operation takes a body. */
  body?: string;
}

export function requestChecker(doc: OpenApiDocument): (request: Request, bodyText: string) => Verdict {
  const validator = createSchemaValidator(doc);
  const operations = listOperations(doc).map(({ path, method, operation }) => operationOf(doc, path, method, operation));
  const wwwAuthenticate = String(resolveRef<OpenAPIV3_1.HeaderObject>(doc, { $ref: '#/components/headers/WWWAuthenticate' }).example);

  return (request, bodyText) => {
    const url = new URL(request.url);
    const instance = url.pathname;
    const fail = (kind: Parameters<typeof problem>[0], detail: string, errors?: ProblemDetail[]): Verdict => ({
      problem: problem(kind, detail, instance, errors),
    });
    if (bearerToken(request.headers.get('authorization')) === undefined) {
      return {
        ...fail('unauthorized', "Send an API key as 'Authorization: Bearer <key>'."),
        headers: { 'www-authenticate': wwwAuthenticate },
      };
    }
    const onPath = operations.filter((operation) => operation.pattern.test(instance));
    if (onPath.length === 0) return fail('not-found', `No route matches ${request.method} ${instance}.`);
    const operation = onPath.find((candidate) => candidate.method === request.method);
    if (!operation) return fail('method-not-allowed', `${request.method} is not allowed on ${instance}.`);
    if (new TextEncoder().encode(bodyText).length > BODY_LIMIT_BYTES) return fail('payload-too-large', PAYLOAD_TOO_LARGE_DETAIL);

    const errors: ProblemDetail[] = unknownQueryParameters(
      new Set(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)),
      url.searchParams.keys(),
    );
    let body: unknown;
    if (operation.body !== undefined) {
      const type = request.headers.get('content-type');
      if (bodyText === '') errors.push({ pointer: '/body', message: 'a JSON request body is required' });
      else if (!/^application\/json\s*(;|$)/i.test(type ?? ''))
        return fail('unsupported-media-type', `Send the body as application/json, not ${(type ?? 'no content type').slice(0, 100)}.`);
      else {
        try {
          body = JSON.parse(bodyText);
        } catch {
          return fail('malformed-json', 'The request body is not valid JSON.');
        }
        errors.push(...schemaErrors(validator.validate(operation.body, body), '/body'));
      }
    }
    const values = Object.fromEntries(
      operation.names.map((name, index) => [name, decodeURIComponent(operation.pattern.exec(instance)![index + 1]!)]),
    );
    const query: Record<string, unknown> = {};
    for (const parameter of operation.parameters) {
      const raw =
        parameter.in === 'path'
          ? values[parameter.name]
          : parameter.in === 'query'
            ? url.searchParams.get(parameter.name)
            : request.headers.get(parameter.name);
      if (raw === null || raw === undefined) {
        if (parameter.required) errors.push({ pointer: `/${where(parameter.in)}/${parameter.name}`, message: 'is required' });
        continue;
      }
      const value = coerce(raw, parameter.type);
      if (parameter.in === 'query') query[parameter.name] = value;
      errors.push(
        ...schemaErrors(validator.validate(parameter.pointer, value), `/${where(parameter.in)}/${escapePointer(parameter.name)}`),
      );
    }
    if (errors.length > 0) return fail('validation-error', invalidPartsDetail(errors.length), errors.slice(0, 100));
    return { ok: { operationId: operation.id, template: operation.template, params: values, query, body } };
  };
}

const where = (location: string) => (location === 'header' ? 'headers' : location);

function operationOf(doc: OpenApiDocument, path: string, method: string, operation: OpenAPIV3_1.OperationObject): Operation {
  const base = `#/paths/${escapePointer(path)}`;
  const declared = [
    ...(doc.paths?.[path]?.parameters ?? []).map((parameter, index) => [parameter, `${base}/parameters/${index}`] as const),
    ...(operation.parameters ?? []).map((parameter, index) => [parameter, `${base}/${method}/parameters/${index}`] as const),
  ];
  const parameters = declared.map(([parameter, at]) => {
    const pointer = '$ref' in parameter ? parameter.$ref : at;
    const resolved = resolveRef<OpenAPIV3_1.ParameterObject>(doc, parameter);
    const schema = resolveRef<OpenAPIV3_1.SchemaObject>(doc, resolved.schema ?? {});
    return { name: resolved.name, in: resolved.in, required: resolved.required === true, pointer: `${pointer}/schema`, type: schema.type };
  });
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const source = path.replace(/\{[^}]+\}/g, '([^/]+)');
  const media =
    operation.requestBody && resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody).content?.['application/json'];
  return {
    id: operation.operationId!,
    method: method.toUpperCase(),
    template: path,
    pattern: new RegExp(`^${source}/?$`),
    names,
    parameters,
    ...(media ? { body: `${base}/${method}/requestBody/content/application~1json/schema` } : {}),
  };
}

/** Query and header values are text; the document types some as integers and booleans. */
function coerce(raw: string, type: unknown): unknown {
  if (type === 'integer' && /^-?\d+$/.test(raw)) return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** Ajv's errors as the document's `{ pointer, message }`, with the server's wording for unknown and missing fields. */
function schemaErrors(result: ReturnType<ReturnType<typeof createSchemaValidator>['validate']>, prefix: string): ProblemDetail[] {
  if (result.valid) return [];
  return result.errors
    .filter((error) => !['anyOf', 'oneOf', 'if'].includes(error.keyword))
    .map((error: ErrorObject) => {
      const params = error.params as { additionalProperty?: string; unevaluatedProperty?: string; missingProperty?: string };
      const extra = params.additionalProperty ?? params.unevaluatedProperty;
      if (extra !== undefined)
        return { pointer: `${prefix}${error.instancePath}/${escapePointer(extra)}`.slice(0, 512), message: 'is not a known field' };
      const missing = params.missingProperty;
      // The server names the allowed values of an enum in its message; so does the mock.
      const allowed = error.keyword === 'enum' ? `: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : '';
      return {
        pointer: `${prefix}${error.instancePath}${missing === undefined ? '' : `/${escapePointer(missing)}`}`.slice(0, 512),
        message: `${error.message ?? 'is invalid'}${allowed}`.slice(0, 1024),
      };
    });
}
