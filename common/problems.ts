// The catalogue of RFC 9457 problem kinds (the table in the document's Errors section): one type
// URI, status and title per kind, shared by the reference server and the mock's contract shim.
import type { components } from '../generated/schema.d.ts';
import { escapePointer } from '../packages/api/src/document.ts';

export type Problem = components['schemas']['Problem'];
export type ProblemDetail = components['schemas']['ProblemError'];

export const PROBLEM_BASE = 'https://secmon.dev/problems/';

const PROBLEM_KINDS = {
  'malformed-request': [400, 'Malformed HTTP request'],
  'validation-error': [400, 'Request validation failed'],
  'malformed-json': [400, 'Malformed JSON body'],
  'url-not-allowed': [400, 'Webhook URL not allowed'],
  unauthorized: [401, 'Authentication required'],
  forbidden: [403, 'Insufficient scope'],
  'not-found': [404, 'Resource not found'],
  'method-not-allowed': [405, 'Method not allowed'],
  'request-timeout': [408, 'Request timeout'],
  'invalid-transition': [409, 'Invalid status transition'],
  'idempotency-key-reused': [409, 'Idempotency key reused'],
  'policy-in-use': [409, 'Policy in use'],
  'precondition-failed': [412, 'Precondition failed'],
  'payload-too-large': [413, 'Payload too large'],
  'unsupported-media-type': [415, 'Unsupported media type'],
  'rate-limited': [429, 'Too many requests'],
  'headers-too-large': [431, 'Request header fields too large'],
  'internal-error': [500, 'Internal server error'],
  'service-unavailable': [503, 'Service unavailable'],
  'storage-full': [503, 'Storage full'],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemKind = keyof typeof PROBLEM_KINDS;

export const isProblemKind = (value: string): value is ProblemKind => Object.hasOwn(PROBLEM_KINDS, value);

export function problem(kind: ProblemKind, detail: string, instance: string, errors?: ProblemDetail[]): Problem {
  const [status, title] = PROBLEM_KINDS[kind];
  return { type: PROBLEM_BASE + kind, title, status, detail, instance, ...(errors ? { errors } : {}) };
}

/** The request body limit the document states in *Limits*, enforced by the server and the mock. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The detail of a `payload-too-large` problem. */
export const PAYLOAD_TOO_LARGE_DETAIL = `The request body exceeds the limit of ${BODY_LIMIT_BYTES} bytes.`;

/** `The request has 2 invalid parts.`: the detail of a validation problem. */
export const invalidPartsDetail = (count: number) => `The request has ${count} invalid part${count === 1 ? '' : 's'}.`;

/** The error a path whose percent-encoding decodes to no text gets: it points at the path as a whole. */
export const UNDECODABLE_PATH: ProblemDetail = { pointer: '/path', message: 'is not a valid percent-encoded URI path' };

/** Whether every percent-encoding in `pathname` decodes to UTF-8 text. */
export function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** One `{ pointer, message }` per query parameter name (each once) that `known` does not list; a name's `~` and `/` escaped as RFC 6901 says. */
export function unknownQueryParameters(known: ReadonlySet<string>, names: Iterable<string>): ProblemDetail[] {
  return [...new Set(names)]
    .filter((name) => !known.has(name))
    .map((name) => ({ pointer: `/query/${escapePointer(name)}`.slice(0, 512), message: 'is not a known parameter' }));
}
