// The typed SecMon client: openapi-fetch over the generated `paths`, with the API key as a bearer
// token, problem details as the typed `error`, and bounded retries of 429 and 503 that honour Retry-After.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../../generated/schema.d.ts';
import { parseRetryAfter } from './retry-after.ts';

/** An RFC 9457 problem document, the body of every error response. */
export type Problem = components['schemas']['Problem'];

/** The client: `GET`, `POST`, `PUT`, `DELETE` with paths, parameters and bodies typed by the document. */
export type SecmonClient = Client<paths>;

export interface SecmonClientOptions {
  /** Root URL of the service, without `/v1` (for example `http://localhost:3000`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** How many times one request is retried after a 429 or 503 (default 2; 0 turns retries off). */
  maxRetries?: number;
  /**
   * The longest `Retry-After` the client waits for, in milliseconds (default 60 s: the reference
   * server's rate-limit window, so a used-up quota is waited out). A 429 or 503 that asks for
   * longer, or gives no `Retry-After`, is returned to the caller as it is.
   */
  maxRetryDelayMs?: number;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** The fetch implementation (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createSecmonClient(options: SecmonClientOptions): SecmonClient {
  const { baseUrl, apiKey, maxRetries = 2, maxRetryDelayMs = 60_000, headers = {}, fetch = globalThis.fetch } = options;
  if (!apiKey) throw new TypeError('createSecmonClient: apiKey is required');
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
    fetch: retryWhenAsked(fetch, maxRetries, maxRetryDelayMs),
  });
}

/**
 * Wraps fetch so a 429 (rate limited) or 503 (service briefly unavailable) is retried after the
 * `Retry-After` it carries, at most `maxRetries` times and only for waits up to `maxDelayMs`. A 429
 * means the request was not processed, so any request is retried. A 503 may come after a create
 * reached the database (the connection was lost before the answer): a `POST` is retried only
 * with an `Idempotency-Key`, which the service never applies twice; other methods are idempotent.
 */
export function retryWhenAsked(
  fetch: (request: Request) => Promise<Response>,
  maxRetries: number,
  maxDelayMs: number,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const retryable = (status: number) =>
      status === 429 || (status === 503 && (request.method !== 'POST' || request.headers.has('idempotency-key')));
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      // A Request body can be read once: keep the original for the next attempt.
      const response = await fetch(last ? request : request.clone());
      if (!retryable(response.status) || last) return response;
      const delay = retryAfterMs(response.headers.get('retry-after'));
      if (delay === undefined || delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}

/** A wait that an aborted request cuts short; plain timers, so it runs in browsers as well as Node. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** `Retry-After` as milliseconds from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  return parseRetryAfter(value, now) ?? undefined;
}

/** Thrown by `unwrap` for an error response; `problem` is the parsed problem document. */
export class SecmonProblemError extends Error {
  override name = 'SecmonProblemError';
  readonly status: number;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.status = problem.status;
    this.problem = problem;
  }
}

/**
 * The `data` of a successful call, or a thrown SecmonProblemError, for code that prefers
 * exceptions: `const policy = unwrap(await client.GET('/v1/policies/{id}', ...))`.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const { error, response } = result;
  if (isProblem(error)) throw new SecmonProblemError(error);
  throw new Error(`${response.status} ${response.statusText}: the response is not a problem document`);
}

/** True when a value has the required fields of a problem document. */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const { type, title, status, detail, instance } = value as Record<string, unknown>;
  return (
    typeof type === 'string' &&
    typeof title === 'string' &&
    typeof status === 'number' &&
    typeof detail === 'string' &&
    typeof instance === 'string'
  );
}
