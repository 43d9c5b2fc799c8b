// Bearer API keys and scopes. Keys are looked up by their SHA-256, so the comparison does not
// leak a key's prefix through timing, and only a short fingerprint of the hash ever reaches
// logs, rate-limit buckets and idempotency records.
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { bearerToken } from '../../packages/core/src/domain/credentials.ts';
import type { ApiKey, Scope } from '../config.ts';
import type { AuthFailureThrottle } from './auth-throttle.ts';
import { ProblemError, sendProblem } from './problems.ts';

export interface Principal {
  /** Fingerprint of the key (not the key): safe to log and to use as a bucket name. */
  id: string;
  scopes: ReadonlySet<Scope>;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

const WWW_AUTHENTICATE = 'Bearer realm="secmon"';

const EVERY_SCOPE: ReadonlySet<Scope> = new Set(['read', 'write']);

/**
 * `anyKey` (AppDeps.anyToken): any well-formed bearer token is a key with every scope. `throttle`
 * counts failures per address and turns a 401 into a 429 past its allowance (auth-throttle.ts).
 */
export function authenticate(keys: readonly ApiKey[], anyKey = false, throttle?: AuthFailureThrottle): RequestHandler {
  const byDigest = new Map<string, Principal>(
    keys.map((key) => {
      const hash = digest(key.token);
      return [hash, { id: `key_${hash.slice(0, 12)}`, scopes: key.scopes }];
    }),
  );
  return (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    const hash = token === undefined ? undefined : digest(token);
    const known = hash === undefined ? undefined : byDigest.get(hash);
    const principal = known ?? (hash !== undefined && anyKey ? { id: `key_${hash.slice(0, 12)}`, scopes: EVERY_SCOPE } : undefined);
    if (!principal) {
      const refuse = () => {
        res.setHeader('WWW-Authenticate', token === undefined ? WWW_AUTHENTICATE : `${WWW_AUTHENTICATE}, error="invalid_token"`);
        const detail = token === undefined ? "Send an API key as 'Authorization: Bearer <key>'." : 'The API key is not valid.';
        sendProblem(req, res, 'unauthorized', detail);
      };
      if (!throttle) return refuse();
      // A counter that cannot be reached must not lock everyone out: the failure is then a plain 401.
      throttle.fail(req).then((wait) => (wait === undefined ? refuse() : throttled(req, res, throttle, wait)), refuse);
      return;
    }
    res.locals.principal = principal;
    next();
  };
}

function throttled(
  req: Parameters<RequestHandler>[0],
  res: Parameters<RequestHandler>[1],
  throttle: AuthFailureThrottle,
  wait: number,
): void {
  res.setHeader('Retry-After', String(wait));
  res.setHeader('RateLimit-Policy', throttle.policy);
  res.setHeader('RateLimit', `${throttle.policy.split(';')[0]}; r=0; t=${wait}`);
  sendProblem(
    req,
    res,
    'rate-limited',
    `Too many requests with a missing or unknown API key from this address; retry in ${wait} seconds. Requests with a valid key are not affected.`,
  );
}

export function principalOf(res: { locals: Record<string, unknown> }): Principal {
  return res.locals.principal as Principal;
}

/** The document gives every GET the `read` scope and every POST, PUT and DELETE the `write` scope. */
export function scopeFor(method: string): Scope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

export const requireScope: RequestHandler = (req, res, next) => {
  const scope = scopeFor(req.method);
  if (!principalOf(res).scopes.has(scope)) {
    return next(new ProblemError('forbidden', `This operation needs an API key with the '${scope}' scope.`));
  }
  next();
};
