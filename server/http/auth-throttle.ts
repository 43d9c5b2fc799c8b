// Failed authentication counted per client address, so invented keys cost something: the quota of
// rate-limit.ts counts per key and would let anyone try keys for free. Past `perMinute` failures in
// a 60-second window, an address's further failures are answered 429 with Retry-After (whatever
// key they carry); a valid key is never counted or refused here. Where the database is shared
// (PostgreSQL), the count is too, so several instances do not multiply the allowance.
import type { Request } from 'express';
import { ipKeyGenerator, MemoryStore, type Options, type Store } from 'express-rate-limit';

const WINDOW_SECONDS = 60;

export interface AuthFailureThrottle {
  /** The quota policy named in the 429's RateLimit-Policy header. */
  readonly policy: string;
  /**
   * Counts one failed authentication from the request's address. Resolves to the seconds to wait
   * when the address is past its allowance, or undefined while it may still be told 401.
   */
  fail(req: Request): Promise<number | undefined>;
}

/** `perMinute` 0 turns the throttle off. */
export function authFailureThrottle(perMinute: number, shared?: Store): AuthFailureThrottle | undefined {
  if (perMinute === 0) return undefined;
  const store = shared ?? new MemoryStore();
  void store.init?.({ windowMs: WINDOW_SECONDS * 1000 } as Options);
  return {
    policy: `"failed-auth-${perMinute}-in-1min"; q=${perMinute}; w=${WINDOW_SECONDS}`,
    async fail(req) {
      // IPv6 clients are counted by their /56, which one user typically holds whole.
      const { totalHits, resetTime } = await store.increment(`failed-auth:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? '')}`);
      if (totalHits <= perMinute) return undefined;
      return Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + WINDOW_SECONDS * 1000) - Date.now()) / 1000));
    },
  };
}
