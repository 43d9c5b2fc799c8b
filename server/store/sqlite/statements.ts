// Prepared statements are compiled once per database and SQL text, and list queries are
// keyset pages over (created_at, id) descending. Resource reads take rows as arrays in the
// SELECT's column order: node:sqlite builds row objects in dictionary mode, and reading their
// fields cost as much as the query itself on a page of findings (profile of bench/http.ts).
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';

export type Row = Record<string, SQLOutputValue>;
/** A row as an array, in the order of the SELECT's columns. */
export type Values = SQLOutputValue[];

const caches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();
const arrayCaches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

function cached(all: WeakMap<DatabaseSync, Map<string, StatementSync>>, db: DatabaseSync, sql: string, arrays: boolean): StatementSync {
  let cache = all.get(db);
  if (!cache) all.set(db, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) {
    cache.set(sql, (prepared = db.prepare(sql)));
    if (arrays) prepared.setReturnArrays(true);
  }
  return prepared;
}

export const statement = (db: DatabaseSync, sql: string): StatementSync => cached(caches, db, sql, false);

/** A statement whose rows are Values (see the top of this module). */
export const arrayStatement = (db: DatabaseSync, sql: string): StatementSync => cached(arrayCaches, db, sql, true);

export interface PageQuery {
  /** `SELECT <columns> FROM <tables>`, without WHERE; rows come back as Values in the columns' order. */
  select: string;
  /** The alias of the table whose `created_at` and `id` order the page. */
  alias: string;
  /** SQL conditions with their parameters, combined with AND. */
  where: [sql: string, value: SQLInputValue][];
  after: CursorPosition | undefined;
  limit: number;
}

/**
 * One page, fetching one row more than asked so the caller knows whether another page exists.
 * The cursor is a row-value comparison: SQLite seeks an index on (…, created_at, id) straight to
 * it, where the equivalent OR of comparisons walks the index from its start.
 */
export function selectPage(db: DatabaseSync, query: PageQuery): Values[] {
  const { alias } = query;
  const conditions = query.where.map(([sql]) => sql);
  const values = query.where.map(([, value]) => value);
  if (query.after) {
    conditions.push(`(${alias}.created_at, ${alias}.id) < (?, ?)`);
    values.push(query.after.created_at, query.after.id);
  }
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  // The LIMIT is written into the SQL, not bound: SQLite's planner reads a bound LIMIT, so binding
  // one expires the statement and every query compiled again (about 4 µs of a 5 µs empty page).
  // Page sizes are few (1 to 100), so the cache holds a statement per size and filter set.
  if (!Number.isSafeInteger(query.limit) || query.limit < 0) throw new RangeError(`page size ${query.limit} is not a whole number`);
  const sql = `${query.select}${where} ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT ${query.limit + 1}`;
  return arrayStatement(db, sql).all(...values) as unknown as Values[];
}

export const json = <T>(value: SQLOutputValue | undefined): T => JSON.parse(value as string) as T;
export const jsonOrNull = <T>(value: SQLOutputValue | undefined): T | null =>
  value === null || value === undefined ? null : json<T>(value);
