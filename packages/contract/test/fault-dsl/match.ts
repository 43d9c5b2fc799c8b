// What a fault applies to: the requests and answers a matcher picks, and the shapes every part of
// the DSL shares.
import type { Fault, ProxiedResponse } from '../fault-proxy.ts';

export interface Match {
  method?: string;
  /** Tested against the path with its query. */
  path?: RegExp;
  status?: number;
}

export type Request = { method: string; path: string; body: Buffer; headers: Record<string, string> };

export type Upstream = Parameters<NonNullable<Fault['response']>>[2];

export type Delivered = { headers: Record<string, string>; body: Buffer };

export const hits = (match: Match, request: Request, response: ProxiedResponse) =>
  (!match.method || match.method === request.method) &&
  (!match.path || match.path.test(request.path)) &&
  (match.status === undefined || match.status === response.status);

export const isJson = (response: ProxiedResponse) => /json/.test(response.headers['content-type'] ?? '') && response.body.length > 0;
