// A thin HTTP front for Prism that makes the mock answer where Prism does not follow the contract
// (each case is listed in docs/frontend.md, "What the shim fixes in Prism"):
// - unknown query parameters get 400 (Prism ignores them);
// - a body that is not JSON gets a `malformed-json` problem (Prism 5.16 never answers it; earlier
//   versions answered a non-problem body, stoplightio/prism#2664), and one over 1 MiB gets 413
//   (Prism has no size limit);
// - unknown paths and methods get the contract's `not-found` / `method-not-allowed` problems
//   instead of Prism's own problem types;
// - a 400 from Prism's request validation gets a problem whose `errors` name what was actually
//   wrong (Prism would send the first canned example, whatever the mistake);
// - every other problem gets the request's path as its `instance`;
// - a 429 says no request remains (`r=0`): Prism copies the document's RateLimit example, which
//   every answer shares and which has quota left;
// - an invalid request gets its own validation problem even when `Prefer` asks for another answer,
//   and a `Prefer` naming a status or example the operation does not document gets a problem
//   listing the ones it does (Prism answers its own NOT_FOUND shape);
// - a list answer is filtered by the query, cut to `limit` and paged with cursors the shim mints,
//   so every cursor loop ends (./pages.ts); a create's `Location` names the id in its body, it is
//   never marked `Idempotent-Replayed`, and every item answer carries an ETag of its own bytes;
// - the Authorization header read as the server reads it (the scheme in any case, several spaces,
//   nothing after the token): Prism takes `Bearer` only, and any text after it;
// - CORS: any origin, echoed, never with credentials (Prism sends `*` with credentials, which
//   browsers refuse), and the headers a client must read exposed by name.
// Everything else, including an example asked for with `Prefer` on a valid request, passes through.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findRoute, loadDocument, type OpenApiDocument, operationRoutes } from 'secmon-api/src/document';
import { documentedChoices, problemForRequest } from '../../../common/prefer.ts';
import {
  BODY_LIMIT_BYTES,
  decodablePath,
  invalidPartsDetail,
  PAYLOAD_TOO_LARGE_DETAIL,
  type ProblemDetail,
  type ProblemKind,
  problem,
  UNDECODABLE_PATH,
  unknownQueryParameters,
} from '../../../common/problems.ts';
import { documentedRateLimit, quotaUsedUp } from '../../../common/rate-limit.ts';
import { bearerToken } from '../../core/src/domain/credentials.ts';
import { believable } from './believable.ts';
import { isListBody, itemHeaders, pageOf } from './pages.ts';
import { PRISM_ERRORS, parseViolations, prefersExample, rateLimitHeaders, toProblemError } from './prism-answers.ts';

export interface ShimOptions {
  /** Prism's base URL; a promise while Prism is still starting (the shim binds its port first). */
  target: string | Promise<string>;
  host: string;
  port: number;
  doc?: OpenApiDocument;
  /** Prism generates the answers (--dynamic): make generated items believable (./believable.ts). */
  dynamic?: boolean;
  /** Called once per answered request: the mock's one log line per request. */
  onAnswer?: (answer: { method: string; path: string; status: number; ms: number }) => void;
}

export interface Shim {
  url: string;
  port: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

export function startShim(options: ShimOptions): Promise<Shim> {
  const doc = options.doc ?? loadDocument();
  const routes = operationRoutes(doc);
  // Every answer of an authenticated request documents these; ours reuse the document's examples.
  const documentedHeaders = documentedRateLimit(doc);
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Prism went away or broke the connection: say so rather than hang the client.
      if (!res.headersSent) send(res, 502, { 'content-type': 'text/plain' }, `mock back end failed: ${(error as Error).message}\n`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    res.on('finish', () =>
      options.onAnswer?.({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        status: res.statusCode,
        ms: Math.round(performance.now() - started),
      }),
    );
    const url = new URL(req.url ?? '/', 'http://mock');
    const method = req.method ?? 'GET';
    const instance = url.pathname;
    const body = await readBody(req);
    const sendProblem = (kind: ProblemKind, detail: string, errors?: ProblemDetail[], headers: Record<string, string> = {}) => {
      const document = problem(kind, detail, instance, errors);
      const cors = corsHeaders(req);
      send(
        res,
        document.status,
        { ...documentedHeaders, ...cors, ...headers, 'content-type': 'application/problem+json' },
        JSON.stringify(document),
      );
    };
    if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
      return send(
        res,
        204,
        {
          ...corsHeaders(req),
          'access-control-allow-methods': 'GET, POST, PUT, DELETE',
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': '600',
        },
        '',
      );
    }
    const token = bearerToken(req.headers.authorization);
    const authorised = token !== undefined;
    // Unknown query parameters are reported with whatever else Prism finds wrong in the request, as
    // the server names every invalid part at once.
    let unknown: ProblemDetail[] = [];
    // Prism answers missing credentials (401) itself, as the contract says.
    if (method !== 'OPTIONS' && authorised) {
      const route = findRoute(routes, url.pathname);
      if (!route) return sendProblem('not-found', `No route matches ${instance}.`);
      const query = route.methods.get(method);
      if (!query) {
        const allow = [...route.methods.keys()].join(', ');
        return sendProblem('method-not-allowed', `${instance} supports ${allow}.`, undefined, { allow });
      }
      if (body === 'too-large') {
        return sendProblem('payload-too-large', PAYLOAD_TOO_LARGE_DETAIL);
      }
      // Prism cannot take a path that does not decode: the server's answer, as it gives it.
      if (!decodablePath(url.pathname)) return sendProblem('validation-error', invalidPartsDetail(1), [UNDECODABLE_PATH]);
      unknown = unknownQueryParameters(query, url.searchParams.keys());
      if (body.length > 0 && isJson(req.headers['content-type']) && !parses(body)) {
        return sendProblem('malformed-json', 'The request body is not valid JSON.');
      }
    } else if (body === 'too-large') {
      return sendProblem('payload-too-large', PAYLOAD_TOO_LARGE_DETAIL);
    }

    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        (entry): entry is [string, string | string[]] =>
          entry[1] !== undefined && !HOP_BY_HOP.has(entry[0]) && entry[0] !== 'authorization',
      ),
    );
    // Prism takes only `Bearer` and one space, and any text after it: the credential goes on in that
    // spelling, and a header that carries none is left out, so Prism answers it as missing.
    if (authorised) headers.authorization = `Bearer ${token}`;
    const answer = await fetch(new URL(url.pathname + url.search, await options.target), {
      method,
      headers: Object.entries(headers).flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((v) => [name, v]) : [[name, value]],
      ) as [string, string][],
      ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
      redirect: 'manual',
    });
    const violations = answer.status === 400 ? parseViolations(answer.headers.get('sl-violations')) : [];
    if (violations.length > 0 || unknown.length > 0) {
      await answer.body?.cancel();
      const errors = [...unknown, ...violations.map(toProblemError)].slice(0, 100);
      return sendProblem('validation-error', invalidPartsDetail(errors.length), errors, rateLimitHeaders(answer.headers));
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding' && !name.startsWith('access-control-')) out[name] = value;
    });
    Object.assign(out, corsHeaders(req));
    if (answer.status === 429 && out.ratelimit !== undefined) out.ratelimit = quotaUsedUp(out.ratelimit, out['retry-after']);
    let payload = Buffer.from(await answer.arrayBuffer());
    const isProblem = /^application\/problem\+json/.test(answer.headers.get('content-type') ?? '');
    const json = isProblem || /^application\/json/.test(answer.headers.get('content-type') ?? '') ? parsed(payload) : undefined;
    if (isProblem && req.headers.prefer && String((json as { type?: unknown } | undefined)?.type).startsWith(PRISM_ERRORS)) {
      const choices = documentedChoices(doc, method, url.pathname);
      return sendProblem('validation-error', invalidPartsDetail(1), [
        {
          pointer: '/headers/Prefer',
          message: `names no documented answer (${String((json as { detail?: unknown }).detail)}); ${choices}`.slice(0, 1024),
        },
      ]);
    }
    if (answer.status === 200 && method === 'GET' && isListBody(json) && !prefersExample(req)) {
      const route = findRoute(routes, url.pathname);
      const filters = [...(route?.methods.get('GET') ?? [])].filter((name) => name !== 'limit' && name !== 'cursor');
      payload = Buffer.from(JSON.stringify(pageOf(json, url.searchParams, filters)));
    }
    if (options.dynamic && answer.status < 300 && json !== undefined && !isProblem)
      payload = Buffer.from(JSON.stringify(believable(parsed(payload))));
    // Prism copies the header examples (`Idempotent-Replayed: true`, one ETag) onto every answer.
    if (!isProblem) itemHeaders(out, answer.status, url.pathname, payload, json);
    send(res, answer.status, out, isProblem && !prefersExample(req) ? withInstance(payload, instance) : payload);
  }

  // The document's problem examples are shared by many operations, so their `instance` (and a
  // `404`'s id) name some other path; a problem should name the request it answers.
  function withInstance(payload: Buffer, instance: string): Buffer {
    const body = parsed(payload);
    return body === undefined ? payload : Buffer.from(JSON.stringify(problemForRequest(body, instance)));
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        url: `http://${host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > BODY_LIMIT_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const isJson = (contentType: string | undefined) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType ?? '');

function parses(body: Buffer): boolean {
  return parsed(body) !== undefined;
}

function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

const ALLOWED_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Prefer';

// The mock is for frontend teams: any origin may call it. Keys travel in Authorization, so no
// credentialed requests (a wildcard with credentials is what browsers refuse).
function corsHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'access-control-allow-origin': req.headers.origin ?? '*',
    'access-control-expose-headers': 'ETag, Location, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id',
    vary: 'Origin',
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer) {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}
