// The 404 every item route shares.
import { ProblemError } from '../http/problems.ts';

export function finder<S, T>(get: (source: S, id: string) => Promise<T | undefined>, noun: string): (source: S, id: string) => Promise<T> {
  return async (source, id) => {
    const item = await get(source, id);
    if (item === undefined) throw new ProblemError('not-found', `No ${noun} has the id ${id}.`);
    return item;
  };
}
