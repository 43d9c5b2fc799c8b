// Conditional writes: If-Match is judged against the row as it is inside the write's own
// transaction, which takes the write lock before reading (BEGIN IMMEDIATE), so of several writers
// sending one ETag exactly one wins, however their requests interleave, in one process or several.
import type { DatabaseSync } from 'node:sqlite';
import { etagOf, ifMatchSatisfied } from '../domain/etag.ts';
import { transaction } from './sqlite/database.ts';

export const PRECONDITION_FAILED = 'precondition-failed';

/**
 * Reads the current representation, and writes only if `ifMatch` (when sent) names its ETag, in one
 * transaction. `read` and `write` may throw to roll everything back.
 */
export function writeIfMatch<T extends object, R>(
  db: DatabaseSync,
  ifMatch: string | undefined,
  read: () => T,
  write: (current: T) => R,
): { written: R } | typeof PRECONDITION_FAILED {
  return transaction(db, () => {
    const current = read();
    if (!ifMatchSatisfied(ifMatch, etagOf(current))) return PRECONDITION_FAILED;
    return { written: write(current) };
  });
}
