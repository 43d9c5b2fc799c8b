// `Prefer: code=<status>, example=<name>` (RFC 7240 preferences, as Prism reads them): how both
// mocks let a frontend ask for a documented answer. The static mock (Prism behind its shim) and the
// stateful one (the reference server, server/stateful-mock/) read the header and pick the answer
// here, so a page written against one behaves the same against the other.
import type { OpenAPIV3_1 } from 'openapi-types';
import { findRoute, listOperations, type OpenApiDocument, operationRoutes, resolveRef } from '../packages/api/src/document.ts';

export interface Preference {
  code?: string;
  example?: string;
}

/** The `code` and `example` preferences of a Prefer header; other preferences are ignored (RFC 7240 §2). */
export function parsePrefer(header: string | undefined): Preference {
  const out: Preference = {};
  for (const part of (header ?? '').split(/[,;]/)) {
    const match = /^\s*(code|example)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (match) out[match[1]!.toLowerCase() as keyof Preference] = match[2]!.trim();
  }
  return out;
}

/** The operation a request names (method and concrete path), if the document has one. */
export function operationFor(doc: OpenApiDocument, method: string, path: string): OpenAPIV3_1.OperationObject | undefined {
  const template = findRoute(operationRoutes(doc), path)?.path;
  return listOperations(doc).find((candidate) => candidate.method.toUpperCase() === method.toUpperCase() && candidate.path === template)
    ?.operation;
}

/** The statuses and named examples the operation at `path` documents, for a Prefer that names none. */
export function documentedChoices(doc: OpenApiDocument, method: string, path: string): string {
  const operation = operationFor(doc, method, path);
  if (!operation) return 'this request has no documented answers';
  const answers = Object.entries(operation.responses ?? {}).map(([status, response]) => {
    const content = resolveRef<OpenAPIV3_1.ResponseObject>(doc, response).content ?? {};
    const examples = Object.values(content).flatMap((media) => Object.keys(media.examples ?? {}));
    return examples.length > 0 ? `${status} (examples: ${examples.join(', ')})` : status;
  });
  return `documented: code=${answers.join('; code=')}`;
}

export interface DocumentedAnswer {
  status: number;
  /** The documented headers that carry an example value. */
  headers: Record<string, string>;
  mediaType?: string;
  body?: unknown;
}

/**
 * The documented answer a preference names: `code` picks a status (its first named example unless
 * `example` names another), `example` alone the status whose examples include it. A string when
 * the preference names nothing the operation documents, or nothing `allowed` admits (why, with the
 * choices).
 */
export function documentedAnswer(
  doc: OpenApiDocument,
  method: string,
  path: string,
  preference: Preference,
  allowed: (status: number) => boolean = () => true,
): DocumentedAnswer | string {
  const operation = operationFor(doc, method, path);
  const responses = Object.entries(operation?.responses ?? {}).map(
    ([status, response]) => [status, resolveRef<OpenAPIV3_1.ResponseObject>(doc, response)] as const,
  );
  const examplesOf = (response: OpenAPIV3_1.ResponseObject) =>
    Object.entries(response.content ?? {}).flatMap(([mediaType, media]) =>
      Object.entries(media.examples ?? {}).map(([name, example]) => ({ mediaType, name, example })),
    );
  const found = responses.find(([status, response]) =>
    preference.code !== undefined
      ? status === preference.code
      : examplesOf(response).some((candidate) => candidate.name === preference.example),
  );
  if (!found)
    return `names no documented answer (${preference.code !== undefined ? `code=${preference.code}` : `example=${preference.example}`}); ${documentedChoices(doc, method, path)}`;
  const [status, response] = found;
  if (!allowed(Number(status))) return `asks for ${status}, which this mock answers from its state, not from an example`;
  const examples = examplesOf(response);
  const example = preference.example === undefined ? examples[0] : examples.find((candidate) => candidate.name === preference.example);
  if (preference.example !== undefined && !example)
    return `names no example ${preference.example} of ${status}; ${documentedChoices(doc, method, path)}`;
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = resolveRef<OpenAPIV3_1.HeaderObject>(doc, header).example;
    if (value !== undefined) headers[name.toLowerCase()] = String(value);
  }
  const value = example && resolveRef<OpenAPIV3_1.ExampleObject>(doc, example.example).value;
  return { status: Number(status), headers, ...(example ? { mediaType: example.mediaType, body: value } : {}) };
}

/**
 * A documented problem example made to answer this request: `instance` is the request's path, and
 * an identifier of the example's own path (say the `pol_…` of a shared `404`) is replaced in
 * `detail` by the one the request names.
 */
export function problemForRequest(body: unknown, requestPath: string): unknown {
  if (typeof body !== 'object' || body === null || !('instance' in body)) return body;
  const problem = body as { instance?: unknown; detail?: unknown };
  const [exampleId, requestId] = [String(problem.instance).split('/').at(-1), requestPath.split('/').at(-1)];
  const idLike = (segment: string | undefined) => segment !== undefined && /^[a-z]{3}_/.test(segment);
  const detail =
    typeof problem.detail === 'string' && idLike(exampleId) && idLike(requestId)
      ? problem.detail.replaceAll(exampleId!, requestId!)
      : problem.detail;
  return { ...body, instance: requestPath, ...(detail === undefined ? {} : { detail }) };
}
