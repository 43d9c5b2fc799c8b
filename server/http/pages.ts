// List responses: limit and cursor in, one page and next_cursor out.
import type { Request } from 'express';
import { decodeCursor, encodeCursor, type CursorPosition } from '../domain/cursor.ts';
import { invalid } from './problems.ts';

type Filters = Record<string, string | number | boolean | undefined>;

export interface PageRequest {
  limit: number;
  after: CursorPosition | undefined;
}

/** Reads limit (defaulted and bounded by the validator) and the cursor, bound to `filters`. */
export function pageRequest(req: Request, list: string, filters: Filters): PageRequest {
  const query = req.query as { limit?: number; cursor?: string };
  const limit = query.limit ?? 20;
  if (query.cursor === undefined) return { limit, after: undefined };
  const after = decodeCursor(list, filters, query.cursor);
  if (!after) throw invalid('/query/cursor', 'is not a cursor issued for this list and filters');
  return { limit, after };
}

/** Trims the extra row the store fetched and turns it into the next cursor. */
export function page<T extends CursorPosition>(rows: T[], request: PageRequest, list: string, filters: Filters) {
  const data = rows.slice(0, request.limit);
  const last = data.at(-1);
  const next_cursor = rows.length > request.limit && last ? encodeCursor(list, filters, last) : null;
  return { data, next_cursor };
}
