// Faults in the limits a service keeps per client: a key quota stated and enforced by the proxy, and
// an address over its failed-authentication limit.
import type { Fault, ProxiedResponse } from '../fault-proxy.ts';
import type { Request, Upstream } from './match.ts';

type Answer = (request: Request, upstream: Upstream) => ProxiedResponse | Promise<ProxiedResponse>;

/**
 * A key quota of `quota` requests a window, stated in RateLimit-Policy and counted per key by the
 * proxy (the upstream's is far higher); past it, `over` answers instead (without: nothing enforces it).
 */
export function quotaOf(quota: number, over?: Answer): Fault {
  const used = new Map<string, number>();
  return {
    response: async (request, response, upstream) => {
      const key = request.headers.authorization;
      if (!key || response.status === 401) return undefined;
      const count = (used.get(key) ?? 0) + 1;
      used.set(key, count);
      if (count > quota && over) return over(request, upstream);
      const name = `"${quota}-in-1min"`;
      const headers = { ...response.headers, 'ratelimit-policy': `${name}; q=${quota}; w=60` };
      return { ...response, headers: { ...headers, ratelimit: `${name}; r=${Math.max(0, quota - count)}; t=60` } };
    },
  };
}

/** The client address over its failed-authentication limit: what would be a 401 is `answer`ed instead. */
export function failedAuthLimited(answer: Answer): Fault {
  return { response: (request, response, upstream) => (response.status === 401 ? answer(request, upstream) : undefined) };
}
