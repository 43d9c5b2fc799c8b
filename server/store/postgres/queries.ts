// What the PostgreSQL modules share: a connection that runs queries (the pool, or one client
// inside a transaction) and the keyset page every list reads.
import type pg from 'pg';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';

/** The pool, or the client of the transaction in progress. */
export type Db = Pick<pg.Pool | pg.PoolClient, 'query'>;

export interface PageQuery {
  /** `SELECT <columns> FROM <tables>`, without WHERE. */
  select: string;
  /** The alias of the table whose `created_at` and `id` order the page. */
  alias: string;
  /** Conditions, each with one `$?` placeholder for its value, combined with AND. */
  where: [sql: string, value: unknown][];
  after: CursorPosition | undefined;
  limit: number;
}

/**
 * One page, one row more than asked so the caller knows whether another page exists. The cursor
 * is a row-value comparison, which PostgreSQL answers with one seek of an index on (…, created_at, id).
 */
export async function selectPage<T extends pg.QueryResultRow>(db: Db, query: PageQuery): Promise<T[]> {
  const { alias } = query;
  const values: unknown[] = [];
  const placeholder = (value: unknown) => `$${values.push(value)}`;
  const conditions = query.where.map(([sql, value]) => sql.replace('$?', placeholder(value)));
  if (query.after)
    conditions.push(`(${alias}.created_at, ${alias}.id) < (${placeholder(query.after.created_at)}, ${placeholder(query.after.id)})`);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const sql = `${query.select}${where} ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT ${placeholder(query.limit + 1)}`;
  return (await db.query<T>(sql, values)).rows;
}
