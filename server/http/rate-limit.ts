// Per-API-key quota with express-rate-limit, answering with the IETF draft-8 headers
// (`RateLimit: "<name>"; r=..; t=..`, `RateLimit-Policy: "<name>"; q=..; w=..`).
import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { principalOf } from './auth.ts';
import { sendProblem } from './problems.ts';

const WINDOW_SECONDS = 60;
/**
 * The quota stated for a key when limiting is off (`--rate-limit 0`): the headers the document
 * requires stay, under the policy name "unlimited", rather than vanishing.
 */
export const UNLIMITED_QUOTA = 2 ** 32 - 1;

/**
 * `shared` counts in the database, so instances behind one load balancer share each key's quota;
 * without it (one SQLite server), the count lives in this process's memory. Counting is skipped
 * when limiting is off. A shared count that fails (the database is unavailable) fails the request
 * with 503 service-unavailable, logged with its cause: a request is never let through unmetered.
 */
export function rateLimitPerKey(perMinute: number, shared?: Store): RequestHandler {
  const name = perMinute === 0 ? 'unlimited' : `${perMinute}-in-1min`;
  return rateLimit({
    ...(shared && perMinute > 0 ? { store: shared } : {}),
    windowMs: WINDOW_SECONDS * 1000,
    limit: perMinute === 0 ? UNLIMITED_QUOTA : perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: name,
    keyGenerator: (_req, res) => principalOf(res).id,
    handler: (req, res) => {
      const retryAfter = res.getHeader('Retry-After') ?? WINDOW_SECONDS;
      sendProblem(
        req,
        res,
        'rate-limited',
        `This API key made more than ${perMinute} requests in ${WINDOW_SECONDS} seconds; retry in ${String(retryAfter)} seconds.`,
      );
    },
  });
}
