// Faults of a service that remembers the wrong thing between requests: an ETag kept whatever changes,
// an Idempotency-Key's bodies compared at the top level only.
import type { Fault, ProxiedResponse } from '../fault-proxy.ts';

/** The ETag of each item under `collection` (a path like `/v1/findings`) kept from its first answer, whatever changes: a conditional read with it answers 304. */
export function etagKept(collection: string): () => Fault {
  const item = new RegExp(`^${collection}/([^/?]+)$`);
  return () => {
    const first = new Map<string, string>();
    return {
      response: (request, response) => {
        const id = item.exec(request.path)?.[1];
        if (!id || !response.headers.etag) return undefined;
        const tag = first.get(id) ?? response.headers.etag;
        first.set(id, tag);
        if (request.method === 'GET' && request.headers['if-none-match'] === tag)
          return { status: 304, headers: { ...response.headers, etag: tag }, body: Buffer.alloc(0) };
        return { ...response, headers: { ...response.headers, etag: tag } };
      },
    };
  };
}

/**
 * Bodies under one `Idempotency-Key` compared member by member at the top level only: a body that
 * differs from the first only below the top level replays the first answer instead of `409`.
 */
export function shallowIdempotency(): Fault {
  const first = new Map<string, { top: string; answer: ProxiedResponse }>();
  const top = (json: Record<string, unknown>) =>
    JSON.stringify(Object.entries(json).map(([name, value]) => [name, typeof value === 'object' && value !== null ? 'nested' : value]));
  return {
    response: (request, response) => {
      const key = request.headers['idempotency-key'];
      if (request.method !== 'POST' || !key || request.body.length === 0) return undefined;
      const sent = top(JSON.parse(request.body.toString('utf8')) as Record<string, unknown>);
      const seen = first.get(key);
      if (!seen) {
        if (response.status < 300) first.set(key, { top: sent, answer: response });
        return undefined;
      }
      return response.status === 409 && seen.top === sent
        ? { ...seen.answer, headers: { ...seen.answer.headers, 'idempotent-replayed': 'true' } }
        : undefined;
    },
  };
}
