// The stateless mode: every valid request gets its operation's documented success answer, as the
// Prism mock gives it behind its shim: the first named example of the success status, a list
// filtered by the query and paged with cursors that end (../../mock/src/pages.ts), a resource with its own
// ETag (and `304` when If-None-Match names it), a create with a Location naming its id.

import type { OpenApiDocument } from 'secmon-api/src/document';
import { listOperations } from 'secmon-api/src/document';
import { isListBody, pageOf } from 'secmon-mock/src/pages';
import { ifNoneMatchHits } from '../../core/src/domain/etag.ts';
import { type Answer, preferredAnswer } from './answer.ts';
import type { CheckedRequest } from './request-check.ts';

export function statelessAnswerer(doc: OpenApiDocument): (request: Request, checked: CheckedRequest) => Answer {
  const success = new Map(
    listOperations(doc).map(({ operation }) => [
      operation.operationId!,
      Object.keys(operation.responses ?? {}).find((status) => status.startsWith('2'))!,
    ]),
  );
  return (request, checked) => {
    const answer = preferredAnswer(doc, request, { code: success.get(checked.operationId)! });
    const url = new URL(request.url);
    if (request.method === 'GET' && isListBody(answer.body)) {
      const filters = Object.keys(checked.query).filter((name) => name !== 'limit' && name !== 'cursor');
      return { ...answer, body: pageOf(answer.body, url.searchParams, filters) };
    }
    const etag = answer.headers.etag;
    if (request.method === 'GET' && etag !== undefined && ifNoneMatchHits(request.headers.get('if-none-match') ?? undefined, etag)) {
      return { status: 304, headers: answer.headers };
    }
    return answer;
  };
}
