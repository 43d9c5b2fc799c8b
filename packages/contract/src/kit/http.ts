// The kit's HTTP client: every request and response is kept as an Exchange so a failure can show
// exactly what was sent and what came back. Credentials are shown by role, never by value.
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { type Dispatcher, request } from 'undici';
import { rawRequest } from './raw-http.ts';
export type Credential = 'api' | 'read' | 'none' | { token: string; role: string };

export interface RequestSpec {
  method: string;
  path: string;
  query?: Record<string, string>;
  /** Serialised as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Who sends it; by default the API key, or the read key for a GET when one is given. */
  auth?: Credential;
  /** The Authorization header's value around the credential; `Bearer <credential>` unless given. */
  spell?: (credential: string) => string;
  /** Return a 429 as is instead of waiting `Retry-After` and retrying (the rate-limit probe). */
  acceptRateLimit?: boolean;
}

export interface SentRequest {
  method: string;
  url: string;
  /** Headers as sent, with the bearer token replaced by its role. */
  headers: Record<string, string>;
  body?: string;
}

export interface Exchange {
  request: SentRequest;
  status: number;
  headers: Headers;
  /** The media type without parameters, lowercase; '' when absent. */
  mediaType: string;
  text: string;
  /** The parsed body when it is JSON; undefined otherwise. */
  json?: unknown;
}

export interface HttpClientOptions {
  baseUrl: string;
  apiKey: string;
  readKey?: string;
  /** Longest `Retry-After` the client waits for before giving up on a 429 or a 503 (seconds). */
  maxRetryWait?: number;
  /** How long one request may take. */
  timeoutMs?: number;
  /** Told every time the client waits for the target's rate limit: how long, and why. */
  onWait?: (ms: number, why: string) => void;
  /**
   * Sent as `User-Agent` unless a request sets its own: gateways and firewalls in front of a target
   * may refuse requests that carry none (undici's request() sends none of its own).
   */
  userAgent?: string;
}

const MAX_RATE_LIMIT_RETRIES = 3;

/** `r` (remaining) and `t` (seconds to reset) of an IETF draft-8 `RateLimit` header. */
export function parseRateLimit(value: string | null): { remaining: number; resetSeconds: number } | undefined {
  const remaining = /(?:^|;)\s*r=(\d+)/.exec(value ?? '')?.[1];
  const reset = /(?:^|;)\s*t=(\d+)/.exec(value ?? '')?.[1];
  return remaining === undefined || reset === undefined ? undefined : { remaining: Number(remaining), resetSeconds: Number(reset) };
}

const EARLY_CLOSE = new Set(['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET']);
const causeCode = (error: unknown): string | undefined => {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (typeof e.code === 'string' && EARLY_CLOSE.has(e.code)) return e.code;
  return undefined;
};
const closedEarly = (error: unknown) => causeCode(error) !== undefined;

function describeFailure(error: unknown, body: string | undefined): string {
  if (body === undefined || !closedEarly(error)) return (error as Error).message;
  return `the target closed the connection while the ${Buffer.byteLength(body)}-byte body was still being sent (${causeCode(error)}), and sent no answer before closing; an early answer (such as 413) must be sent before the close`;
}

/** The answer a target sent before closing on a request body it did not read, or undefined when it sent none. */
async function answerBeforeClose(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<Response | undefined> {
  const { host, pathname, search } = new URL(url);
  const lines = Object.entries({ ...headers, Host: host, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' });
  const request = `${method} ${pathname}${search} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
  const answer = await rawRequest(url, request, timeoutMs);
  if (answer.status === undefined || answer.status < 200) return undefined;
  return new Response(answer.status === 204 || answer.status === 304 ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}

// A Map, not an object: a coding named `constructor` or `toString` is one the kit cannot decode.
const DECODERS = new Map<string, (bytes: Buffer) => Buffer>([
  ['gzip', gunzipSync],
  ['x-gzip', gunzipSync],
  ['deflate', inflateSync],
  ['br', brotliDecompressSync],
]);

/**
 * A body as text, its content coding undone: the kit asks for none (`Accept-Encoding: identity`), but
 * HTTP lets a server code a body anyway, and a gateway in front of a target may.
 */
function decoded(body: Buffer, coding: string | null, request: string): string {
  // A HEAD, a 204 or a 304 states the coding of a body it does not carry.
  if (body.length === 0) return '';
  const codings = (coding ?? '')
    .split(',')
    .map((one) => one.trim().toLowerCase())
    .filter((one) => one !== '' && one !== 'identity');
  let bytes = body;
  for (const one of codings.reverse()) {
    const decode = DECODERS.get(one);
    if (!decode) throw new ContentCodingError(`${request}: the answer's body is in the content coding ${one}, which the kit cannot decode`);
    try {
      bytes = decode(bytes);
    } catch (error) {
      throw new ContentCodingError(`${request}: the answer says Content-Encoding: ${coding}, but its body does not decode as ${one}`, {
        cause: error,
      });
    }
  }
  return bytes.toString('utf8');
}

class ContentCodingError extends Error {}

/** Whether `headers` has a field named `name` (lowercase), in whatever case it was written. */
export const hasHeader = (headers: Record<string, string>, name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** Whether a request may be sent again after a 503: any but a POST, and a POST under an Idempotency-Key. */
const repeatable = (method: string, headers: Record<string, string>) => method !== 'POST' || hasHeader(headers, 'idempotency-key');

/** Whether an answer states the quota of the key that sent the request (not the failed-authentication policy). */
const pacedByKey = (auth: Credential, status: number) => (auth === 'api' || auth === 'read') && status !== 401;

export function createHttpClient(options: HttpClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const maxWait = options.maxRetryWait ?? 65;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let requests = 0;
  let waitedMs = 0;
  // What a time budget plans with: requests on the API key's quota, and what was created and not
  // deleted yet (each costs a delete at cleanup).
  let keyRequests = 0;
  let created = 0;
  // When the target said a key's quota is used up, the key's next request waits for the window to
  // reset instead of provoking a 429 (the kit paces itself by the RateLimit header it is sent).
  // Quotas are per key: using up the read key (the 429 probe) must not hold the write key back.
  const quotaResetsAt = new Map<string, number>();

  async function wait(ms: number, why: string) {
    options.onWait?.(ms, why);
    waitedMs += ms;
    await sleep(ms);
  }

  function credential(auth: Credential): { token?: string; role: string } {
    if (auth === 'none') return { role: 'none' };
    if (auth === 'api') return { token: options.apiKey, role: '<api-key>' };
    if (auth === 'read') {
      if (!options.readKey) throw new Error('this check needs --read-key');
      return { token: options.readKey, role: '<read-key>' };
    }
    return auth;
  }

  async function send(spec: RequestSpec): Promise<Exchange> {
    const query = new URLSearchParams(spec.query ?? {}).toString();
    const url = `${base}${spec.path}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = { Accept: 'application/json, application/problem+json', ...spec.headers };
    const shown: Record<string, string> = { ...headers };
    if (options.userAgent !== undefined && !hasHeader(headers, 'user-agent')) headers['User-Agent'] = options.userAgent;
    // A GET goes on the read key when there is one: its quota is its own, so reads do not eat the
    // writes' quota (a run against a production quota fits twice the requests). The document lets a
    // read-only key use every GET; a check that means the API key names it.
    const auth = spec.auth ?? (spec.method === 'GET' && options.readKey ? 'read' : 'api');
    const { token, role } = credential(auth);
    if (token !== undefined) {
      const spell = spec.spell ?? ((credential: string) => `Bearer ${credential}`);
      headers.Authorization = spell(token);
      // A key the kit made up is no secret: shown as sent, so a reproduction can send it again.
      shown.Authorization = spell(typeof auth === 'object' ? auth.token : role);
    }
    const body = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    if (body !== undefined) {
      headers['Content-Type'] = spec.contentType ?? 'application/json';
      shown['Content-Type'] = headers['Content-Type'];
    }
    for (let attempt = 0; ; attempt++) {
      const untilReset = (quotaResetsAt.get(role) ?? 0) - Date.now();
      if (untilReset > 0 && !spec.acceptRateLimit) await wait(untilReset, 'the RateLimit header says the quota is used up');
      requests++;
      if (auth === 'api') keyRequests++;
      let response: { status: number; headers: Headers };
      let text: string;
      try {
        // undici's request rather than fetch: the same client underneath, without the streams and
        // objects of the Fetch standard, at about half the CPU per request. It follows no redirect
        // and decodes no content coding (see decoded).
        const answer = await request(url, {
          method: spec.method as Dispatcher.HttpMethod,
          headers: hasHeader(headers, 'accept-encoding') ? headers : { 'Accept-Encoding': 'identity', ...headers },
          body: body ?? null,
          signal: AbortSignal.timeout(timeoutMs),
        });
        response = { status: answer.statusCode, headers: headersOf(answer.headers) };
        text = decoded(Buffer.from(await answer.body.arrayBuffer()), response.headers.get('content-encoding'), `${spec.method} ${url}`);
      } catch (error) {
        if (error instanceof ContentCodingError) throw error;
        // A target may answer (a 413) and close before the body is all sent, which the client reports
        // only as a failed write: the answer is read again from a socket that keeps reading.
        const early =
          body !== undefined && closedEarly(error) ? await answerBeforeClose(url, spec.method, headers, body, timeoutMs) : undefined;
        // A hanging or refusing target must fail the check that asked, with the request it sent.
        if (!early) throw new Error(`${spec.method} ${url} got no answer: ${describeFailure(error, body)}`, { cause: error });
        response = early;
        text = await early.text();
      }
      // Only a key's own quota paces it: a refused credential's answer states the failed-authentication
      // policy of the address, which the document says does not limit valid keys.
      const quota = pacedByKey(auth, response.status) ? parseRateLimit(response.headers.get('ratelimit')) : undefined;
      if (quota && quota.remaining === 0) quotaResetsAt.set(role, Date.now() + Math.max(quota.resetSeconds, 1) * 1000);
      const retryAfter = Number(response.headers.get('retry-after'));
      // A 503 with Retry-After is the document's service-unavailable: the service briefly cannot
      // answer (its database, under load), and a client sends the request again after the wait, a
      // create only under the same Idempotency-Key. The kit does as such a client, so a target
      // that is busy for a moment is judged on its answer, not on the moment.
      const unavailable = response.status === 503 && response.headers.has('retry-after') && repeatable(spec.method, headers);
      if (
        ((response.status === 429 && !spec.acceptRateLimit) || unavailable) &&
        attempt < MAX_RATE_LIMIT_RETRIES &&
        Number.isFinite(retryAfter) &&
        retryAfter <= maxWait
      ) {
        quotaResetsAt.delete(role);
        await wait(Math.max(retryAfter, 1) * 1000, `${response.status} on ${spec.method} ${spec.path}, Retry-After: ${retryAfter}`);
        continue;
      }
      if (spec.method === 'POST' && response.status === 201) created++;
      if (spec.method === 'DELETE' && response.status >= 200 && response.status < 300) created--;
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      let json: unknown;
      if (text !== '' && mediaType.endsWith('json')) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      return {
        request: { method: spec.method, url, headers: shown, ...(body === undefined ? {} : { body }) },
        status: response.status,
        headers: response.headers,
        mediaType,
        text,
        json,
      };
    }
  }

  return {
    send,
    baseUrl: base,
    hasReadKey: options.readKey !== undefined,
    /** Requests sent so far (of them on the API key's quota), creates not deleted yet (201 to POST less 2xx to DELETE), and milliseconds spent waiting for the rate limit. */
    stats: () => ({ requests, waitedMs, keyRequests, created }),
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
