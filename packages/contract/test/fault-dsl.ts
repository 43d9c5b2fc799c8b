// Faults as one-liners over the fault proxy: rewrite a JSON field, a header or a status of the
// answers that match, rewrite what a request carries, drop or duplicate deliveries, delay
// answers; `all` combines them. A proof that a check bites is then a few declarative lines.
import { setTimeout as sleep } from 'node:timers/promises';
import { entryOver, serviceSignature } from '../src/kit/oracle.ts';
import { editJson, type Fault, type ProxiedResponse } from './fault-proxy.ts';

export interface Match {
  method?: string;
  /** Tested against the path with its query. */
  path?: RegExp;
  status?: number;
}

type Request = { method: string; path: string; body: Buffer; headers: Record<string, string> };

const hits = (match: Match, request: Request, response: ProxiedResponse) =>
  (!match.method || match.method === request.method) &&
  (!match.path || match.path.test(request.path)) &&
  (match.status === undefined || match.status === response.status);

const isJson = (response: ProxiedResponse) => /json/.test(response.headers['content-type'] ?? '') && response.body.length > 0;

/** Edits the JSON body of matching answers. */
export function field(match: Match, edit: (json: Record<string, unknown>, request: Request) => void): Fault {
  return {
    response: (request, response) =>
      hits(match, request, response) && isJson(response) ? editJson(response, (json) => edit(json, request)) : undefined,
  };
}

/** Rewrites (undefined: removes) a response header of matching answers; `name` lowercase. */
export function header(match: Match, name: string, rewrite: (value: string | undefined, request: Request) => string | undefined): Fault {
  return {
    response: (request, response) => {
      if (!hits(match, request, response)) return undefined;
      const { [name]: value, ...rest } = response.headers;
      const next = rewrite(value, request);
      return { ...response, headers: next === undefined ? rest : { ...rest, [name]: next } };
    },
  };
}

/** Answers matching requests with another status (the body kept). */
export function status(match: Match, to: number): Fault {
  return { response: (request, response) => (hits(match, request, response) ? { ...response, status: to } : undefined) };
}

type Upstream = Parameters<NonNullable<Fault['response']>>[2];

/** Answers matching requests with what `respond` makes of the upstream's answer (undefined: that answer as it is). */
export function answer(
  match: Match,
  respond: (
    request: Request,
    response: ProxiedResponse,
    upstream: Upstream,
  ) => ProxiedResponse | undefined | Promise<ProxiedResponse | undefined>,
): Fault {
  return { response: (request, response, upstream) => (hits(match, request, response) ? respond(request, response, upstream) : undefined) };
}

/** An answer of `status` with a JSON body (none when `json` is undefined). */
export function jsonAnswer(status: number, json?: unknown): ProxiedResponse {
  if (json === undefined) return { status, headers: {}, body: Buffer.alloc(0) };
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json)) };
}

/** Rewrites the path (with its query) of every request before it reaches the implementation. */
export function requestPath(rewrite: (path: string, method: string) => string): Fault {
  return { path: (method, path) => rewrite(path, method) };
}

/** Rewrites every request's headers (names lowercase) before they reach the implementation. */
export function requestHeaders(rewrite: (headers: Record<string, string>) => Record<string, string>): Fault {
  return { headers: rewrite };
}

/** Rewrites the receiver's answer to each delivery on its way back to the service. */
export function receiverAnswer(rewrite: NonNullable<Fault['deliveryAnswer']>): Fault {
  return { deliveryAnswer: rewrite };
}

/** Rewrites each delivery on its way to the receiver (undefined: dropped). */
export function deliveries(rewrite: (delivery: Delivered) => Delivered | undefined): Fault {
  return { delivery: (headers, body) => rewrite({ headers, body }) };
}

/** Holds each delivery for `ms()` milliseconds on its way (a draw per delivery), so they also come out of order. */
export function heldDeliveries(ms: () => number): Fault {
  return { deliveryDelayMs: ms };
}

/** Sends every delivery twice, after a random pause. */
export function duplicatedDeliveries(): Fault {
  return { duplicateDeliveries: true };
}

/** Sends response bodies in chunks (Transfer-Encoding: chunked). */
export function chunkedAnswers(): Fault {
  return { chunked: true };
}

/** Rewrites a request header before it reaches the implementation, as one that reads it wrongly would. */
export function requestHeader(name: string, rewrite: (value: string) => string): Fault {
  return { headers: (headers) => (name in headers ? { ...headers, [name]: rewrite(headers[name]!) } : headers) };
}

/** Rewrites the JSON body of matching requests (`path` with its query) before it reaches the implementation. */
export function requestBody(match: Omit<Match, 'status'>, edit: (json: Record<string, unknown>, path: string) => void): Fault {
  return {
    request: (method, path, body) => {
      if ((match.method && match.method !== method) || (match.path && !match.path.test(path)) || body.length === 0) return body;
      const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      edit(json, path);
      return Buffer.from(JSON.stringify(json));
    },
  };
}

/** Drops deliveries whose body `when` picks (all by default): the service answered for the receiver. */
export function dropDelivery(when: (body: Record<string, unknown>) => boolean = () => true): Fault {
  return {
    delivery: (headers, body) => (when(JSON.parse(body.toString('utf8')) as Record<string, unknown>) ? undefined : { headers, body }),
  };
}

/** Delays matching answers by `ms`. */
export function delay(match: Match, ms: number): Fault {
  return {
    response: async (request, response) => {
      if (!hits(match, request, response)) return undefined;
      await sleep(ms);
      return response;
    },
  };
}

/**
 * Several faults at once: request rewrites in order, response rewrites in order, delivery rewrites
 * in order (a dropped delivery goes no further), the receiver's answer rewritten by each in order,
 * and the delivery variations any of them asks for (the first one's delay).
 */
export function all(...faults: Fault[]): Fault {
  const delivered = faults.flatMap((f) => (f.delivery ? [f.delivery.bind(f)] : []));
  const answered = faults.flatMap((f) => (f.deliveryAnswer ? [f.deliveryAnswer.bind(f)] : []));
  const delayed = faults.find((f) => f.deliveryDelayMs)?.deliveryDelayMs;
  return {
    path: (method, path) => faults.reduce((p, f) => f.path?.(method, p) ?? p, path),
    headers: (headers) => faults.reduce((h, f) => f.headers?.(h) ?? h, headers),
    request: (method, path, body) => faults.reduce((b, f) => f.request?.(method, path, b) ?? b, body),
    response: async (request, response, upstream) => {
      let current = response;
      for (const f of faults) current = (await f.response?.(request, current, upstream)) ?? current;
      return current;
    },
    ...(delivered.length > 0
      ? {
          delivery: (headers, body) =>
            delivered.reduce<Delivered | undefined>((d, rewrite) => d && rewrite(d.headers, d.body), { headers, body }),
        }
      : {}),
    ...(answered.length > 0 ? { deliveryAnswer: (answer, delivery) => answered.reduce((a, rewrite) => rewrite(a, delivery), answer) } : {}),
    ...(delayed ? { deliveryDelayMs: delayed } : {}),
    ...(faults.some((f) => f.duplicateDeliveries) ? { duplicateDeliveries: true } : {}),
    ...(faults.some((f) => f.chunked) ? { chunked: true } : {}),
  };
}

/** Removes a request header before it reaches the implementation, as one that ignores it would; `name` lowercase. */
export function withoutRequestHeader(name: string): Fault {
  return { headers: ({ [name]: _dropped, ...rest }) => rest };
}

/** Drops a query parameter from matching requests before they reach the implementation, as one that ignores it would. */
export function withoutQuery(match: Omit<Match, 'status'>, name: string): Fault {
  const parameter = new RegExp(`([?&])${name}=[^&]*(&|$)`);
  return {
    path: (method, path) =>
      (!match.method || match.method === method) && (!match.path || match.path.test(path))
        ? path.replace(parameter, (_all, before: string, after: string) => (after ? before : '')).replace(/\?$/, '')
        : path,
  };
}

/** The document's base of problem type URIs. */
export const PROBLEM_TYPES = 'https://secmon.dev/problems/';

/** Answers problems of type `from` with type `to` (names under the document's problem base). */
export function problemType(from: string, to: string): Fault {
  return field({}, (json) => {
    if (json.type === PROBLEM_TYPES + from) json.type = PROBLEM_TYPES + to;
  });
}

type Answer = (request: Request, upstream: Upstream) => ProxiedResponse | Promise<ProxiedResponse>;

/** A problem answer of `status` and `type`, with `headers`, as the implementation would send it. */
export function problemAnswer(status: number, type: string, headers: Record<string, string> = {}): ProxiedResponse {
  const problem = { type: PROBLEM_TYPES + type, title: type, status, detail: `A ${type} problem.`, instance: '/v1/policies' };
  return { status, headers: { 'content-type': 'application/problem+json', ...headers }, body: Buffer.from(JSON.stringify(problem)) };
}

/** A `429` problem (`rate-limited` unless `type` says otherwise), as a service over some quota answers. */
export const rateLimited = (headers: Record<string, string>, type = 'rate-limited') => problemAnswer(429, type, headers);

/**
 * A key quota of `quota` requests a window, stated in RateLimit-Policy and counted per key by the
 * proxy (the upstream's is far higher); past it, `over` answers instead (without: nothing enforces it).
 */
export function quotaOf(quota: number, over?: Answer): Fault {
  const used = new Map<string, number>();
  return {
    response: async (request, response, upstream) => {
      const key = request.headers.authorization;
      if (!key || response.status === 401) return undefined;
      const count = (used.get(key) ?? 0) + 1;
      used.set(key, count);
      if (count > quota && over) return over(request, upstream);
      const name = `"${quota}-in-1min"`;
      const headers = { ...response.headers, 'ratelimit-policy': `${name}; q=${quota}; w=60` };
      return { ...response, headers: { ...headers, ratelimit: `${name}; r=${Math.max(0, quota - count)}; t=60` } };
    },
  };
}

/** The client address over its failed-authentication limit: what would be a 401 is `answer`ed instead. */
export function failedAuthLimited(answer: Answer): Fault {
  return { response: (request, response, upstream) => (response.status === 401 ? answer(request, upstream) : undefined) };
}

type Delivered = { headers: Record<string, string>; body: Buffer };
const eventIn = (body: Buffer) => {
  try {
    return (JSON.parse(body.toString('utf8')) as { event?: unknown }).event;
  } catch {
    return undefined;
  }
};

/** Rewrites (undefined: removes) a header of the deliveries of `event` (all by default); `name` lowercase. */
export function deliveryHeader(
  name: string,
  rewrite: (value: string | undefined, delivery: Delivered) => string | undefined,
  event?: string,
): Fault {
  return {
    delivery: (headers, body) => {
      if (event !== undefined && eventIn(body) !== event) return { headers, body };
      const { [name]: value, ...rest } = headers;
      const next = rewrite(value, { headers, body });
      return { headers: next === undefined ? rest : { ...rest, [name]: next }, body };
    },
  };
}

/** The two signatures a sender computes for `body` with `secret`: X-Service-Signature and one webhook-signature entry. */
export const sign = {
  service: (secret: string, body: Buffer) => serviceSignature(body, secret),
  standard: (secret: string, signed: Buffer | string) => entryOver(signed, secret),
};

/**
 * A delivery fault that knows its webhook's secret (learnt from the webhook writes it sees), for a
 * service that signs what it should not: `rewrite` gets the secret, undefined for an unsigned webhook.
 */
export function withSecret(rewrite: (delivery: Delivered, secret: string | undefined) => Delivered): Fault {
  const secrets = new Map<string, string>();
  return {
    response: (request, response) => {
      if (!/^\/v1\/webhooks/.test(request.path) || request.body.length === 0 || response.status >= 300 || !isJson(response))
        return undefined;
      const { secret } = JSON.parse(request.body.toString('utf8')) as { secret?: unknown };
      const { id } = JSON.parse(response.body.toString('utf8')) as { id?: unknown };
      if (typeof secret === 'string') secrets.set(String(id), secret);
      else if (secret === null) secrets.delete(String(id));
      return undefined;
    },
    delivery: (headers, body) => rewrite({ headers, body }, secrets.get(headers['x-service-webhook-id'] ?? '')),
  };
}

/** Edits the JSON body of the deliveries of `event` and signs the new bytes again, as a service that sent wrong data would. */
export function deliveryJson(event: string, edit: (json: Record<string, unknown>) => void): Fault {
  return withSecret(({ headers, body }, secret) => {
    if (eventIn(body) !== event) return { headers, body };
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    edit(json);
    const edited = Buffer.from(JSON.stringify(json));
    if (secret === undefined) return { headers, body: edited };
    const signed = Buffer.concat([Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`), edited]);
    return {
      headers: { ...headers, 'x-service-signature': sign.service(secret, edited), 'webhook-signature': sign.standard(secret, signed) },
      body: edited,
    };
  });
}

/**
 * The upstream's raw answer of status `from` (to a request Node's parser refuses, or one that
 * stalled) replaced by the `to` problem `type`, as an implementation that tells them apart wrongly.
 */
export function rawAnswer(from: number, to: number, type: string): Fault {
  return {
    raw: (answer) => {
      if (!answer.toString('latin1').startsWith(`HTTP/1.1 ${from} `)) return undefined;
      const { body } = problemAnswer(to, type);
      return Buffer.from(
        `HTTP/1.1 ${to} ${type}\r\nContent-Type: application/problem+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}

/**
 * A length limit counted in UTF-8 bytes instead of characters: a matching request whose `field` is
 * within `max` characters but over `max` bytes is refused as invalid (after the upstream took it).
 */
export function lengthInBytes(match: Omit<Match, 'status'>, field: string, max: number): Fault {
  return {
    response: (request, response) => {
      if (!hits(match, request, response) || response.status >= 300 || request.body.length === 0) return undefined;
      const value = (JSON.parse(request.body.toString('utf8')) as Record<string, unknown>)[field];
      if (typeof value !== 'string' || Buffer.byteLength(value) <= max) return undefined;
      const problem = {
        type: `${PROBLEM_TYPES}validation-error`,
        title: 'Request validation failed',
        status: 400,
        detail: 'The request has 1 invalid part.',
        instance: request.path,
        errors: [{ pointer: `/body/${field}`, message: `must NOT have more than ${max} characters` }],
      };
      return {
        status: 400,
        headers: { ...response.headers, 'content-type': 'application/problem+json' },
        body: Buffer.from(JSON.stringify(problem)),
      };
    },
  };
}

/** The ETag of each item under `collection` (a path like `/v1/findings`) kept from its first answer, whatever changes: a conditional read with it answers 304. */
export function etagKept(collection: string): () => Fault {
  const item = new RegExp(`^${collection}/([^/?]+)$`);
  return () => {
    const first = new Map<string, string>();
    return {
      response: (request, response) => {
        const id = item.exec(request.path)?.[1];
        if (!id || !response.headers.etag) return undefined;
        const tag = first.get(id) ?? response.headers.etag;
        first.set(id, tag);
        if (request.method === 'GET' && request.headers['if-none-match'] === tag)
          return { status: 304, headers: { ...response.headers, etag: tag }, body: Buffer.alloc(0) };
        return { ...response, headers: { ...response.headers, etag: tag } };
      },
    };
  };
}

/**
 * Bodies under one `Idempotency-Key` compared member by member at the top level only: a body that
 * differs from the first only below the top level replays the first answer instead of `409`.
 */
export function shallowIdempotency(): Fault {
  const first = new Map<string, { top: string; answer: ProxiedResponse }>();
  const top = (json: Record<string, unknown>) =>
    JSON.stringify(Object.entries(json).map(([name, value]) => [name, typeof value === 'object' && value !== null ? 'nested' : value]));
  return {
    response: (request, response) => {
      const key = request.headers['idempotency-key'];
      if (request.method !== 'POST' || !key || request.body.length === 0) return undefined;
      const sent = top(JSON.parse(request.body.toString('utf8')) as Record<string, unknown>);
      const seen = first.get(key);
      if (!seen) {
        if (response.status < 300) first.set(key, { top: sent, answer: response });
        return undefined;
      }
      return response.status === 409 && seen.top === sent
        ? { ...seen.answer, headers: { ...seen.answer.headers, 'idempotent-replayed': 'true' } }
        : undefined;
    },
  };
}
