// What a handler answers, before it becomes a fetch Response: a status, headers and a JSON body.
// Both modes build on two shared pieces: the documented answer a `Prefer` header or a scenario asks
// for (common/prefer.ts, as the two server mocks read it), and the problem of a refused request.

import type { OpenApiDocument } from 'secmon-api/src/document';
import { itemHeaders } from 'secmon-mock/src/pages';
import { documentedAnswer, type Preference, problemForRequest } from '../../../common/prefer.ts';
import { invalidPartsDetail, type Problem, problem } from '../../../common/problems.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  mediaType?: string;
}

export const problemAnswer = (body: Problem, headers: Record<string, string> = {}): Answer => ({
  status: body.status,
  headers,
  body,
  mediaType: 'application/problem+json',
});

/**
 * The documented answer `preference` names for this request, made to answer it: a problem example
 * names the request's path, a resource example carries its own ETag (and a create its Location).
 * A preference naming nothing documented (or nothing `allowed`) is a `400` at `/headers/Prefer`
 * listing the choices, as in both server mocks.
 */
export function preferredAnswer(
  doc: OpenApiDocument,
  request: Request,
  preference: Preference,
  allowed: (status: number) => boolean = () => true,
): Answer {
  const path = new URL(request.url).pathname;
  const found = documentedAnswer(doc, request.method, path, preference, allowed);
  if (typeof found === 'string') {
    return problemAnswer(
      problem('validation-error', invalidPartsDetail(1), path, [{ pointer: '/headers/Prefer', message: found.slice(0, 1024) }]),
    );
  }
  const { status, body, mediaType } = found;
  // A test has no time to wait: the client retries a 429 or 503 after its Retry-After, so the
  // handlers ask for none and the problem reaches the caller at once (a scenario may ask for more).
  const headers = found.headers['retry-after'] === undefined ? found.headers : { ...found.headers, 'retry-after': '0' };
  if (body === undefined) return { status, headers };
  const isProblem = mediaType === 'application/problem+json';
  const value = isProblem ? problemForRequest(body, path) : body;
  return {
    status,
    headers: isProblem ? headers : itemHeaders(headers, status, path, JSON.stringify(value), value),
    body: value,
    mediaType: mediaType!,
  };
}

export function toResponse(answer: Answer): Response {
  const headers = new Headers(answer.headers);
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  headers.set('content-type', answer.mediaType ?? 'application/json');
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}
