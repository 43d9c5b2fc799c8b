// What a stateless mock can still do honestly with a list example: filter its items by the query,
// cut them to `limit`, and page through them with cursors it mints itself, so a "load every page"
// loop ends. A cursor it did not mint (the document's example cursor, say) gets the last page:
// empty, with `next_cursor: null`.
import { etagOfBytes } from '../../core/src/domain/etag.ts';
import { portablePlatform } from '../../core/src/portable-platform.ts';

export interface ListBody {
  data: Record<string, unknown>[];
  next_cursor: string | null;
}

const CURSOR = /^mock_(\d{1,6})$/;
const DEFAULT_LIMIT = 20;

export function isListBody(value: unknown): value is ListBody {
  return typeof value === 'object' && value !== null && Array.isArray((value as ListBody).data) && 'next_cursor' in value;
}

/** Does an item pass a filter? `event=x` also matches an item whose `events` list holds x. */
function matches(item: Record<string, unknown>, name: string, value: string): boolean {
  if (name in item) return String(item[name]) === value;
  const plural = item[`${name}s`];
  return Array.isArray(plural) ? plural.map(String).includes(value) : true;
}

/** The page of `example` that `query` asks for; `filters` are the list's documented filter names. */
export function pageOf(example: ListBody, query: URLSearchParams, filters: readonly string[]): ListBody {
  const items = example.data.filter((item) => filters.every((name) => !query.has(name) || matches(item, name, query.get(name)!)));
  const limit = Number(query.get('limit') ?? DEFAULT_LIMIT);
  const cursor = query.get('cursor');
  const offset = cursor === null ? 0 : Number(CURSOR.exec(cursor)?.[1] ?? items.length);
  const end = offset + limit;
  return { data: items.slice(offset, end), next_cursor: end < items.length ? `mock_${end}` : null };
}

/** A strong ETag of a representation, as the document's ETag header allows (the server's own tag). */
export const etagOf = (body: Uint8Array | string) => etagOfBytes(portablePlatform.sha256, body);

/**
 * The headers of a success answer that carries a resource (a body with an `id`), in place of the
 * examples': the ETag of its own bytes, a create's `Location` naming its id, and never
 * `Idempotent-Replayed` (a mock that keeps no keys never replays). Mutates and returns `headers`.
 */
export function itemHeaders(headers: Record<string, string>, status: number, path: string, payload: Uint8Array | string, body: unknown) {
  const id = (body as { id?: unknown } | undefined)?.id;
  if (status >= 300 || typeof id !== 'string') return headers;
  delete headers['idempotent-replayed'];
  headers.etag = etagOf(payload);
  if (status === 201) headers.location = `${path.replace(/\/+$/, '')}/${id}`;
  return headers;
}
