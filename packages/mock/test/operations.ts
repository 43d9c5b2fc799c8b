// What the mock tests derive from the document: a concrete request for every operation (path ids
// and body from the document's own examples) and the schema pointers of its documented answers.
import type { OpenAPIV3_1 } from 'openapi-types';
import { listMediaTypes, listOperations, type MediaTypeRef, type OpenApiDocument, resolveRef } from 'secmon-api/src/document';

export interface ExampleRequest {
  label: string;
  operationId: string;
  method: string;
  path: string;
  /** The first named example of the request body, when the operation takes one. */
  body?: unknown;
  /** Documented statuses of the operation. */
  statuses: string[];
  /** Documented response bodies, by `<status> <media type>`. */
  responses: Map<string, MediaTypeRef>;
  /** Response headers each documented status must carry. */
  requiredHeaders: Map<string, string[]>;
}

export function exampleRequests(doc: OpenApiDocument): ExampleRequest[] {
  const media = listMediaTypes(doc);
  return listOperations(doc).map(({ path, method, operation }) => {
    const label = `${method.toUpperCase()} ${path}`;
    const pathItem = doc.paths?.[path] ?? {};
    const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) =>
      resolveRef<OpenAPIV3_1.ParameterObject>(doc, parameter),
    );
    const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const parameter = parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
      if (typeof parameter?.example !== 'string') throw new Error(`${label}: path parameter ${name} has no example`);
      return parameter.example;
    });
    const request = media.find((entry) => entry.kind === 'request' && entry.where.startsWith(`${label} request `));
    const responses = new Map(
      media
        .filter((entry) => entry.kind === 'response' && entry.where.startsWith(`${label} → `))
        .map((entry) => [`${entry.status} ${entry.mediaType}`, entry]),
    );
    const requiredHeaders = new Map(
      Object.entries(operation.responses ?? {}).map(([status, response]) => {
        const headers = resolveRef<OpenAPIV3_1.ResponseObject>(doc, response).headers ?? {};
        const required = Object.entries(headers)
          .filter(([, header]) => resolveRef<OpenAPIV3_1.HeaderObject>(doc, header).required)
          .map(([name]) => name.toLowerCase());
        return [status, required];
      }),
    );
    return {
      label,
      operationId: operation.operationId ?? label,
      method: method.toUpperCase(),
      path: concrete,
      ...(request ? { body: request.examples[0]?.value } : {}),
      statuses: Object.keys(operation.responses ?? {}),
      responses,
      requiredHeaders,
    };
  });
}

/** The media type without parameters (`application/json; charset=utf-8` → `application/json`). */
export const mediaTypeOf = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim();
