// Faults in what the implementation answers: a JSON field, a header or a status of the answers that
// match rewritten, an answer made anew or late, a problem of another type, a raw answer replaced.
import { setTimeout as sleep } from 'node:timers/promises';
import { editJson, type Fault, type ProxiedResponse } from '../fault-proxy.ts';
import { hits, isJson, type Match, type Request, type Upstream } from './match.ts';

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

/** The document's base of problem type URIs. */
export const PROBLEM_TYPES = 'https://secmon.dev/problems/';

/** Answers problems of type `from` with type `to` (names under the document's problem base). */
export function problemType(from: string, to: string): Fault {
  return field({}, (json) => {
    if (json.type === PROBLEM_TYPES + from) json.type = PROBLEM_TYPES + to;
  });
}

/** A problem answer of `status` and `type`, with `headers`, as the implementation would send it. */
export function problemAnswer(status: number, type: string, headers: Record<string, string> = {}): ProxiedResponse {
  const problem = { type: PROBLEM_TYPES + type, title: type, status, detail: `A ${type} problem.`, instance: '/v1/policies' };
  return { status, headers: { 'content-type': 'application/problem+json', ...headers }, body: Buffer.from(JSON.stringify(problem)) };
}

/** A `429` problem (`rate-limited` unless `type` says otherwise), as a service over some quota answers. */
export const rateLimited = (headers: Record<string, string>, type = 'rate-limited') => problemAnswer(429, type, headers);

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
 * A length limit counted in UTF-8 bytes instead of characters: a matching request whose member at
 * `pointer` (below the body: `/name`, `/frameworks/0/control`) is within `max` characters but over
 * `max` bytes is refused as invalid (after the upstream took it).
 */
export function lengthInBytes(match: Omit<Match, 'status'>, pointer: string, max: number): Fault {
  return {
    response: (request, response) => {
      if (!hits(match, request, response) || response.status >= 300 || request.body.length === 0) return undefined;
      const value = pointer
        .split('/')
        .slice(1)
        .reduce<unknown>(
          (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
          JSON.parse(request.body.toString('utf8')),
        );
      if (typeof value !== 'string' || Buffer.byteLength(value) <= max) return undefined;
      const problem = {
        type: `${PROBLEM_TYPES}validation-error`,
        title: 'Request validation failed',
        status: 400,
        detail: 'The request has 1 invalid part.',
        instance: request.path,
        errors: [{ pointer: `/body${pointer}`, message: `must NOT have more than ${max} characters` }],
      };
      return {
        status: 400,
        headers: { ...response.headers, 'content-type': 'application/problem+json' },
        body: Buffer.from(JSON.stringify(problem)),
      };
    },
  };
}
