// Per-API-key quota with express-rate-limit, answering with the IETF draft-8 headers
// (`RateLimit: "<name>"; r=..; t=..`, `RateLimit-Policy: "<name>"; q=..; w=..`).
import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { classifyDatabaseError } from '../store/faults.ts';
import { principalOf } from './auth.ts';
import { RETRY_AFTER_SECONDS, sendProblem } from './problems.ts';

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
 * That answer still carries both headers, as the document promises of every authenticated answer:
 * what is left of the window is unknown then, so it states `r=0` until the answer's Retry-After,
 * and a client pacing itself by `RateLimit` waits as long as one reading Retry-After.
 */
export function rateLimitPerKey(limit: number, windowSeconds: number, shared?: Store): RequestHandler {
  const name = limit === 0 ? 'unlimited' : `${limit}-in-${windowSeconds === 60 ? '1min' : `${windowSeconds}s`}`;
  const quota = limit === 0 ? UNLIMITED_QUOTA : limit;
  const limiter = rateLimit({
    ...(shared && limit > 0 ? { store: shared } : {}),
    windowMs: windowSeconds * 1000,
    limit: quota,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: name,
    keyGenerator: (_req, res) => principalOf(res).id,
    handler: (req, res) => {
      const retryAfter = res.getHeader('Retry-After') ?? windowSeconds;
      sendProblem(
        req,
        res,
        'rate-limited',
        `This API key made more than ${limit} requests in ${windowSeconds} seconds; retry in ${String(retryAfter)} seconds.`,
      );
    },
  });
  return (req, res, next) =>
    limiter(req, res, (error?: unknown) => {
      if (error !== undefined && !res.headersSent) {
        const fault = classifyDatabaseError(error);
        res.setHeader('RateLimit-Policy', `"${name}"; q=${quota}; w=${windowSeconds}`);
        res.setHeader('RateLimit', `"${name}"; r=0; t=${fault ? RETRY_AFTER_SECONDS[fault.kind] : windowSeconds}`);
      }
      next(error);
    });
}
