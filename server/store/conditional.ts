// Conditional writes: If-Match is judged against the row as it is inside the write's own
// transaction, which is serializable in every store (SQLite takes the write lock before reading,
// PostgreSQL retries a transaction that lost a race), so of several writers sending one ETag
// exactly one wins, however their requests interleave, in one process or several.
import { etagOf, ifMatchSatisfied } from '../domain/etag.ts';
import type { Store } from './store.ts';

export const IF_MATCH_FAILED = 'if-match-failed';

/**
 * Reads the current representation, and writes only if `ifMatch` (when sent) names its ETag, in one
 * transaction. `read` and `write` may throw to roll everything back.
 */
export function writeIfMatch<T extends object, R>(
  store: Store,
  ifMatch: string | undefined,
  read: (tx: Store) => Promise<T>,
  write: (tx: Store, current: T) => Promise<R>,
): Promise<{ written: R } | typeof IF_MATCH_FAILED> {
  return store.transaction(async (tx) => {
    const current = await read(tx);
    if (!ifMatchSatisfied(ifMatch, etagOf(current))) return IF_MATCH_FAILED;
    return { written: await write(tx, current) };
  });
}
