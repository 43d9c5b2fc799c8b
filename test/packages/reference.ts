// The reference server the package tests run the packed client and kit against, one per test file.
import { afterAll, beforeAll } from 'vitest';
import { type ReferenceTarget, startReferenceTarget } from '../../packages/contract/test/reference-target.ts';

/** The reference server, started before the file's tests and closed after them; filled in by then. */
export function referenceBeforeAll(): ReferenceTarget {
  const reference = {} as ReferenceTarget;
  beforeAll(async () => {
    Object.assign(reference, await startReferenceTarget());
  }, 120_000);
  afterAll(async () => {
    await reference.server?.close();
  });
  return reference;
}
