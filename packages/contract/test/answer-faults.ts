// The rule faults of the service's answers beside the resources: problem types and details, a
// validation problem without its errors, RateLimit headers on unknown routes, CORS preflights and
// the failed-authentication 429.

import { asBody } from './delivery-faults.ts';
import { all, answer, field, header, PROBLEM_TYPES } from './fault-dsl.ts';

export const conflictTypeForEvery409 = field({ status: 409 }, (json) => void (json.type = `${PROBLEM_TYPES}conflict`));
export const keyEchoedIn401 = field(
  { status: 401 },
  (json, request) => void (json.detail = `Unknown API key: ${request.headers.authorization ?? ''}`),
);
export const validationWithoutErrors = field({ status: 400 }, (json) => void delete json.errors);
export const noRateLimitOnUnknownRoutes = all(
  header({ status: 404 }, 'ratelimit', () => undefined),
  header({ status: 404 }, 'ratelimit-policy', () => undefined),
);
export const noPreflight = answer({}, (request, response) =>
  request.method === 'OPTIONS'
    ? {
        status: 401,
        headers: { 'content-type': 'application/problem+json' },
        body: asBody({ type: `${PROBLEM_TYPES}unauthorized`, title: 'Unauthorized', status: 401 }),
      }
    : response.status < 300
      ? {
          ...response,
          headers: Object.fromEntries(Object.entries(response.headers).filter(([name]) => !name.startsWith('access-control-'))),
        }
      : undefined,
);
/**
 * A failed-authentication 429 without Retry-After: on a target that allows one failure a minute, a
 * failure is asked again, so the answer is the 429 (the kit's request being the second failure).
 */
export const failedAuth429WithoutRetryAfter = answer({}, async (request, response, upstream) => {
  const throttled = response.status === 401 ? await upstream(request.method, request.path, request.headers) : response;
  if (throttled.status !== 429) return undefined;
  const { 'retry-after': _dropped, ...headers } = throttled.headers;
  return { ...throttled, headers };
});
