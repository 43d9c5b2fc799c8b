// Prepared statements are compiled once per database and SQL text, and list queries are
// keyset pages over (created_at, id) descending.
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import type { CursorPosition } from '../domain/cursor.ts';

export type Row = Record<string, SQLOutputValue>;

const caches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

export function statement(db: DatabaseSync, sql: string): StatementSync {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

export interface PageQuery {
  /** `SELECT ... FROM <table> <alias>`, without WHERE. */
  select: string;
  alias: string;
  /** SQL conditions with their parameters, combined with AND. */
  where: [sql: string, value: SQLInputValue][];
  after: CursorPosition | undefined;
  limit: number;
}

/** One page, fetching one row more than asked so the caller knows whether another page exists. */
export function selectPage(db: DatabaseSync, query: PageQuery): Row[] {
  const { alias } = query;
  const conditions = query.where.map(([sql]) => sql);
  const values = query.where.map(([, value]) => value);
  if (query.after) {
    conditions.push(`(${alias}.created_at < ? OR (${alias}.created_at = ? AND ${alias}.id < ?))`);
    values.push(query.after.created_at, query.after.created_at, query.after.id);
  }
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const sql = `${query.select}${where} ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT ?`;
  return statement(db, sql).all(...values, query.limit + 1) as Row[];
}

export const json = <T>(value: SQLOutputValue | undefined): T => JSON.parse(value as string) as T;
export const jsonOrNull = <T>(value: SQLOutputValue | undefined): T | null => (value === null || value === undefined ? null : json<T>(value));
