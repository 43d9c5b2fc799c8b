// Entity tags as RFC 9110 defines the two comparisons the document relies on: `If-Match`
// ("refuse lost updates") uses the strong comparison, so a weak tag never matches; `If-None-Match`
// uses the weak one. The model never predicts a tag's value (its encoding is the target's choice):
// it learns it from answers and asserts that a changed representation gets a changed strong tag.
import { canonical, type Difference, type Known } from './state.ts';

export const isWeak = (tag: string) => tag.startsWith('W/');

/** Whether `If-Match: tag` must let the request through (true) or get 412 (false); undefined when the model cannot tell. */
export function ifMatchPasses(known: Known, tag: string): boolean | undefined {
  if (isWeak(tag)) return false;
  if (known.etag === undefined) return undefined;
  return tag === known.etag;
}

/**
 * Statuses `If-None-Match: tag` on a read may get: 304 on the current tag, 200 on another. A weak
 * form of the current tag may get either: the document does not say which comparison a read uses.
 */
export function ifNoneMatchStatuses(known: Known, tag: string): number[] | undefined {
  if (known.etag === undefined) return undefined;
  const bare = tag.replace(/^W\//, '');
  if (bare === known.etag) return isWeak(tag) ? [304, 200] : [304];
  return [200];
}

/** Learns the representation and tag an answer showed; says what breaks "every resource has a strong ETag". */
export function learnTag(known: Known, json: unknown, tag: string | null): Difference[] {
  const out: Difference[] = [];
  if (tag === null) return [{ rule: 'idempotency-and-concurrency.2', message: 'the answer has no ETag' }];
  if (isWeak(tag))
    out.push({ rule: 'idempotency-and-concurrency.2', message: `the ETag ${tag} is weak; the document promises strong ones` });
  if (known.seen !== undefined && known.seenTag === tag && canonical(known.seen) !== canonical(json))
    out.push({
      rule: 'idempotency-and-concurrency.2',
      message: `the representation changed but its ETag ${tag} did not: a strong ETag changes with the representation`,
    });
  if (known.etag !== undefined && known.etag !== tag && !known.oldTags.includes(known.etag)) known.oldTags.push(known.etag);
  known.seen = json as Known['seen'];
  known.seenTag = tag;
  known.etag = tag;
  return out;
}

/** A validator that is not the current one: an earlier tag of the resource, or one never issued. */
export function staleTag(known: Known): string {
  return known.oldTags.filter((tag) => tag !== known.etag).at(-1) ?? '"kit-never-issued"';
}
