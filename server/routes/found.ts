// The 404 every item route shares.
import { ProblemError } from '../http/problems.ts';

export function finder<T>(get: (id: string) => T | undefined, noun: string): (id: string) => T {
  return (id) => {
    const item = get(id);
    if (item === undefined) throw new ProblemError('not-found', `No ${noun} has the id ${id}.`);
    return item;
  };
}
