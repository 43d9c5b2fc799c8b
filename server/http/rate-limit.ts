// Per-API-key quota with express-rate-limit, answering with the IETF draft-8 headers
// (`RateLimit: "<name>"; r=..; t=..`, `RateLimit-Policy: "<name>"; q=..; w=..`).
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { principalOf } from './auth.ts';
import { sendProblem } from './problems.ts';

const WINDOW_SECONDS = 60;

export function rateLimitPerKey(perMinute: number): RequestHandler {
  if (perMinute === 0) return (_req, _res, next) => next();
  const name = `${perMinute}-in-1min`;
  return rateLimit({
    windowMs: WINDOW_SECONDS * 1000,
    limit: perMinute,
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
