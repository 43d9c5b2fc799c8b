// List responses: limit and cursor in, one page and next_cursor out (the core binds cursors to filters).
import type { RequestHandler } from 'express';
import type { components } from '../../generated/schema.d.ts';
import type { ListPage, Outcome } from '../../packages/core/src/index.ts';
import { settled } from './domain-errors.ts';

type Query = { limit: components['parameters']['Limit']; cursor?: components['parameters']['Cursor'] };

/** GET handler of a list: `filtersOf` picks the filters from the validated query, `list` is the core's use case. */
export function listHandler<F>(
  filtersOf: (query: Record<string, unknown>) => F,
  list: (filters: F, cursor: string | undefined, limit: number) => Promise<Outcome<ListPage<unknown>>>,
): RequestHandler {
  return async (req, res) => {
    const { limit, cursor } = req.query as unknown as Query;
    res.json(settled(await list(filtersOf(req.query as Record<string, unknown>), cursor, limit)));
  };
}
