// Where a validation problem's `errors[].pointer` may point: a JSON Pointer (RFC 6901) into the
// request seen as `{ body, query, path, headers }`, as the ProblemError schema describes it.
import { escapePointer } from 'secmon-api/src/document';
import type { Exchange } from '../../http.ts';

const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;
const REQUEST_PARTS = new Set(['body', 'query', 'path', 'headers']);

/** A JSON Pointer whose first segment is one of the request's parts. */
export const isRequestPointer = (pointer: string): boolean => JSON_POINTER.test(pointer) && REQUEST_PARTS.has(pointer.split('/')[1] ?? '');

/** The pointer to a query parameter: its name is one segment, `~` and `/` escaped. */
export const queryPointer = (name: string): string => `/query/${escapePointer(name)}`;

/** The pointers of a problem answer's `errors`, as sent (none when it lists no errors). */
export const errorPointers = (exchange: Exchange): unknown[] =>
  ((exchange.json as { errors?: { pointer?: unknown }[] } | undefined)?.errors ?? []).map((error) => error.pointer);
