// Rules on operations as a whole: their existence, ids, statuses, bodies, media types and
// response headers. Each is a pure function of the comparison.
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, resolveRef } from '../../../packages/api/src/document.ts';
import type { BreakingRuleId } from '../catalogue.ts';
import { type Change, type Comparison, type Direction, headerNamed, keptOperations, requestBodyOf, responsesOf } from '../model.ts';

export type DocumentRule = (comparison: Comparison) => Change[];

/** A change of one operation, concerning that operation's audience. */
export const changeOf = (
  rule: BreakingRuleId,
  op: { audience: Change['audience'][number] },
  fields: Omit<Change, 'rule' | 'audience'>,
): Change => ({
  rule,
  ...fields,
  audience: [op.audience],
});

/** An API operation is gone (removed, or moved to another path or method). */
export const operationRemoved: DocumentRule = ({ operations }) =>
  operations
    .filter((op) => op.kind === 'api' && !op.revision)
    .map((op) => changeOf('operation-removed', op, { pointer: op.base.pointer, message: `${op.label} was removed` }));

/** An event type is gone from `webhooks`: receivers subscribed to it get nothing. */
export const eventTypeRemoved: DocumentRule = ({ operations }) =>
  operations
    .filter((op) => op.kind === 'webhook' && !op.revision)
    .map((op) => changeOf('event-type-removed', op, { pointer: op.base.pointer, message: `${op.label} was removed` }));

/** A renamed operationId renames the method of every generated client. */
export const operationIdChanged: DocumentRule = (comparison) =>
  keptOperations(comparison)
    .filter((op) => op.base.operation.operationId !== op.revision.operation.operationId)
    .map((op) =>
      changeOf('operation-id-changed', op, {
        pointer: `${op.revision.pointer}/operationId`,
        message: `${op.label}: the operationId was renamed`,
        before: op.base.operation.operationId,
        after: op.revision.operation.operationId,
      }),
    );

/**
 * A documented status is gone and no range covers it. Clients branch on statuses; for a webhook
 * the statuses are receivers' answers, and one the service no longer documents is one it may
 * no longer honour (say `410` disabling the webhook).
 */
export const statusCodeRemoved: DocumentRule = (comparison) =>
  keptOperations(comparison).flatMap((op) =>
    responsesOf(comparison, op)
      .filter((response) => !response.revision)
      .map((response) =>
        changeOf('status-code-removed', op, {
          pointer: response.basePointer,
          message: `${op.label}: response ${response.status} was removed`,
          before: Object.keys(op.base.operation.responses ?? {}),
          after: Object.keys(op.revision.operation.responses ?? {}),
        }),
      ),
  );

/** A request body clients may omit (or that did not exist) is now required. */
export const requestBodyBecameRequired: DocumentRule = (comparison) =>
  keptOperations(comparison)
    .filter((op) => op.sent === 'to-service')
    .flatMap((op) => {
      const [before, after] = [requestBodyOf(comparison.base, op.base), requestBodyOf(comparison.revision, op.revision)];
      return after?.required && !before?.required
        ? [
            changeOf('request-body-became-required', op, {
              pointer: `${op.revision.pointer}/requestBody/required`,
              message: `${op.label}: the request body is now required`,
              before: before ? false : 'no body',
              after: true,
            }),
          ]
        : [];
    });

/** `application/json` is still accepted by a service that now accepts `application/*` or `*\/*`. */
function accepts(mediaTypes: string[], media: string): boolean {
  const [type] = media.split('/');
  return mediaTypes.some((candidate) => candidate === media || candidate === '*/*' || candidate === `${type}/*`);
}

/**
 * A media type of a request body, API response or event body is gone (renamed, or the body
 * removed). What the service receives may move to a wildcard that still covers it; what it sends
 * may not, since readers dispatch on the exact type. Receivers' answers to webhooks are not read.
 */
export const mediaTypeRemoved: DocumentRule = (comparison) =>
  keptOperations(comparison).flatMap((op) => {
    const bodies: {
      what: string;
      pointer: string;
      direction: Direction;
      before?: OpenAPIV3_1.RequestBodyObject['content'];
      after?: OpenAPIV3_1.RequestBodyObject['content'];
    }[] = [
      {
        what: op.kind === 'api' ? 'request body' : 'event body',
        pointer: `${op.base.pointer}/requestBody`,
        direction: op.sent,
        before: requestBodyOf(comparison.base, op.base)?.content,
        after: requestBodyOf(comparison.revision, op.revision)?.content,
      },
      ...(op.kind === 'webhook'
        ? []
        : responsesOf(comparison, op)
            // A removed status is status-code-removed's finding, not one per media type.
            .filter((response) => response.revision)
            .map((response) => ({
              what: `response ${response.status}`,
              pointer: response.basePointer,
              direction: 'from-service' as const,
              before: response.base.content,
              after: response.revision?.content,
            }))),
    ];
    return bodies.flatMap(({ what, pointer, direction, before, after }) => {
      const kept = Object.keys(after ?? {});
      return Object.keys(before ?? {})
        .filter((media) => (direction === 'to-service' ? !accepts(kept, media) : !kept.includes(media)))
        .map((media) =>
          changeOf('media-type-removed', op, {
            pointer: `${pointer}/content/${escapePointer(media)}`,
            message: `${op.label}: the ${what} is no longer ${media}`,
            before: Object.keys(before ?? {}),
            after: kept,
          }),
        );
    });
  });

/** A response header (ETag, Location, RateLimit, Retry-After, ...) is no longer sent, or no longer always. */
export const responseHeaderRemoved: DocumentRule = (comparison) =>
  keptOperations(comparison)
    .filter((op) => op.kind === 'api')
    .flatMap((op) =>
      responsesOf(comparison, op).flatMap((response) => {
        if (!response.revision) return [];
        return Object.entries(response.base.headers ?? {}).flatMap(([name, header]) => {
          const after = headerNamed(response.revision!.headers, name);
          if (!after) {
            return [
              changeOf('response-header-removed', op, {
                pointer: `${response.basePointer}/headers/${escapePointer(name)}`,
                message: `${op.label}: response ${response.status} no longer has the header ${name}`,
              }),
            ];
          }
          const required = (doc: typeof comparison.base, value: unknown) =>
            resolveRef<OpenAPIV3_1.HeaderObject>(doc, value as OpenAPIV3_1.HeaderObject).required === true;
          return required(comparison.base, header) && !required(comparison.revision, after[1])
            ? [
                changeOf('response-header-became-optional', op, {
                  pointer: `${response.revisionPointer}/headers/${escapePointer(after[0])}/required`,
                  message: `${op.label}: response ${response.status} no longer always has the header ${name}`,
                  before: true,
                  after: false,
                }),
              ]
            : [];
        });
      }),
    );
