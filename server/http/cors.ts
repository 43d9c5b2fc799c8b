// CORS for browser apps on other origins (the `cors` middleware). Mounted before authentication and
// rate limiting, so a preflight gets its answer without a key and without spending quota.
import cors from 'cors';
import type { RequestHandler } from 'express';

/** Request headers a browser client of this API sends beyond the CORS-safelisted ones. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key'];
/** Response headers a browser client needs to read (ETag for If-Match, Location after a create, the quota). */
const EXPOSED_HEADERS = ['ETag', 'Location', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id'];

/** `extraHeaders`: request headers only some assemblies of the app read (AppDeps.corsRequestHeaders). */
export function corsForOrigins(origins: readonly (string | RegExp)[], extraHeaders: readonly string[] = []): RequestHandler {
  return cors({
    origin: origins.length === 0 ? false : [...origins],
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: [...ALLOWED_HEADERS, ...extraHeaders],
    exposedHeaders: EXPOSED_HEADERS,
    // Keys travel in Authorization, not cookies: no credentialed requests.
    credentials: false,
    maxAge: 600,
  });
}
