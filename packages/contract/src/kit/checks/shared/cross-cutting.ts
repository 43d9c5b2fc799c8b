// The rules every answer keeps whatever it answers: CORS headers for an allowed origin, the
// RateLimit headers of a request with a key, and a problem document for every error.
import type { Check } from '../../failure.ts';
import type { Exchange } from '../../http.ts';
import type { Discrepancy } from '../../verify.ts';

export const PROBLEM_FIELDS = ['type', 'title', 'status', 'detail', 'instance'];

const list = (value: string | null) => (value ?? '').split(',').map((item) => item.trim().toLowerCase());

/** The rules every answer keeps: a check that judges them lists them all. */
export type CrossCuttingRule = 'browser-clients-cors.1' | 'browser-clients-cors.3' | 'rate-limits.2' | 'errors.1';

/** What an answer breaks of the cross-cutting rules; `cors`: the origin it was sent from, when the target allows it. */
export function crossCuttingBreaches(check: Check<CrossCuttingRule>, exchange: Exchange, cors: string | undefined): Discrepancy[] {
  const breaches: Discrepancy[] = [];
  const what = `a ${exchange.status} answer to ${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
  if (cors !== undefined) {
    const allowed = exchange.headers.get('access-control-allow-origin');
    if (allowed !== cors && allowed !== '*')
      breaches.push(
        ...check.found({
          rule: 'browser-clients-cors.1',
          observed: `${what} from origin ${cors} has Access-Control-Allow-Origin ${String(allowed)}`,
        }),
      );
    const exposed = list(exchange.headers.get('access-control-expose-headers'));
    const hidden = EXPOSED_HEADERS.filter((h) => !exposed.includes(h) && !exposed.includes('*'));
    if (hidden.length > 0)
      breaches.push(
        ...check.found({ rule: 'browser-clients-cors.3', observed: `${what} does not expose ${hidden.join(', ')} to browsers` }),
      );
  }
  const key = /^Bearer <(api|read)-key>$/.test(exchange.request.headers.Authorization ?? '');
  if (key && exchange.status !== 401) {
    const missing = ['ratelimit', 'ratelimit-policy'].filter((h) => exchange.headers.get(h) === null);
    if (missing.length > 0)
      breaches.push(...check.found({ rule: 'rate-limits.2', observed: `${what} with a valid key has no ${missing.join(', ')}` }));
  }
  if (exchange.status >= 400) {
    const problem = exchange.json as Record<string, unknown> | undefined;
    const missing = PROBLEM_FIELDS.filter((field) => problem?.[field] === undefined);
    if (exchange.mediaType !== 'application/problem+json' || missing.length > 0 || problem?.status !== exchange.status)
      breaches.push(
        ...check.found({
          rule: 'errors.1',
          observed: `${what} is not a problem document (${exchange.mediaType || 'no body'}${missing.length > 0 ? `, without ${missing.join(', ')}` : ''}${problem && problem.status !== exchange.status ? `, status ${String(problem.status)}` : ''})`,
        }),
      );
  }
  return breaches;
}

/** Tried when the run names no origin: the reference server allows any localhost origin in development. */
export const DEFAULT_CORS_ORIGIN = 'http://localhost:5173';

export const EXPOSED_HEADERS = ['etag', 'location', 'ratelimit', 'ratelimit-policy', 'retry-after', 'x-request-id'];
