// List responses: limit and cursor in, one page and next_cursor out.
import type { Request, RequestHandler } from 'express';
import type { components } from '../../generated/schema.d.ts';
import { type CursorPosition, decodeCursor, encodeCursor } from '../domain/cursor.ts';
import { invalid } from './problems.ts';

type Filters = Record<string, string | number | boolean | undefined>;

interface PageRequest {
  limit: number;
  after: CursorPosition | undefined;
}

/** Reads limit (defaulted and bounded by the validator, from the document) and the cursor, bound to `filters`. */
function pageRequest(req: Request, list: string, filters: Filters): PageRequest {
  const query = req.query as unknown as { limit: components['parameters']['Limit']; cursor?: components['parameters']['Cursor'] };
  const { limit } = query;
  if (query.cursor === undefined) return { limit, after: undefined };
  const after = decodeCursor(list, filters, query.cursor);
  if (!after) throw invalid('/query/cursor', 'is not a cursor issued for this list and filters');
  return { limit, after };
}

/**
 * GET handler of a list: `filtersOf` picks the filters from the validated query, `fetch` reads
 * one row more than the page so the handler knows whether to issue a next_cursor.
 */
export function listHandler<F extends Filters, T extends CursorPosition>(
  list: string,
  filtersOf: (query: Record<string, unknown>) => F,
  fetch: (filters: F, after: CursorPosition | undefined, limit: number) => Promise<T[]>,
): RequestHandler {
  return async (req, res) => {
    const filters = filtersOf(req.query as Record<string, unknown>);
    const { limit, after } = pageRequest(req, list, filters);
    const rows = await fetch(filters, after, limit);
    const data = rows.slice(0, limit);
    const last = data.at(-1);
    res.json({ data, next_cursor: rows.length > limit && last ? encodeCursor(list, filters, last) : null });
  };
}
