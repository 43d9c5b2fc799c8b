// Faults in how the implementation reads a request: its path, query, headers or JSON body rewritten
// before it reaches the implementation, as one that reads them wrongly or ignores them would.
import type { Fault } from '../fault-proxy.ts';
import type { Match } from './match.ts';

/** Rewrites the path (with its query) of every request before it reaches the implementation. */
export function requestPath(rewrite: (path: string, method: string) => string): Fault {
  return { path: (method, path) => rewrite(path, method) };
}

/** Rewrites every request's headers (names lowercase) before they reach the implementation. */
export function requestHeaders(rewrite: (headers: Record<string, string>) => Record<string, string>): Fault {
  return { headers: rewrite };
}

/** Rewrites a request header before it reaches the implementation, as one that reads it wrongly would. */
export function requestHeader(name: string, rewrite: (value: string) => string): Fault {
  return { headers: (headers) => (name in headers ? { ...headers, [name]: rewrite(headers[name]!) } : headers) };
}

/** Removes a request header before it reaches the implementation, as one that ignores it would; `name` lowercase. */
export function withoutRequestHeader(name: string): Fault {
  return { headers: ({ [name]: _dropped, ...rest }) => rest };
}

/** Rewrites the JSON body of matching requests (`path` with its query) before it reaches the implementation. */
export function requestBody(match: Omit<Match, 'status'>, edit: (json: Record<string, unknown>, path: string) => void): Fault {
  return {
    request: (method, path, body) => {
      if ((match.method && match.method !== method) || (match.path && !match.path.test(path)) || body.length === 0) return body;
      const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      edit(json, path);
      return Buffer.from(JSON.stringify(json));
    },
  };
}

/** Drops a query parameter from matching requests before they reach the implementation, as one that ignores it would. */
export function withoutQuery(match: Omit<Match, 'status'>, name: string): Fault {
  const parameter = new RegExp(`([?&])${name}=[^&]*(&|$)`);
  return {
    path: (method, path) =>
      (!match.method || match.method === method) && (!match.path || match.path.test(path))
        ? path.replace(parameter, (_all, before: string, after: string) => (after ? before : '')).replace(/\?$/, '')
        : path,
  };
}
