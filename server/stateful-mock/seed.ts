// The stateful mock's data on a server store: the document's examples (packages/core/src/seed.ts)
// written once at start, and written again after every row goes (`--reset`).
import type { OpenApiDocument } from '../../packages/api/src/document.ts';
import { insertSeed } from '../../packages/core/src/index.ts';
import type { Store } from '../store/store.ts';

export function seedFromExamples(store: Store, doc: OpenApiDocument): Promise<void> {
  return store.transaction((tx) => insertSeed(tx, doc));
}

/** Every row goes (what the app wrote, queued deliveries, idempotency records) and the examples come back, in one transaction. */
export function resetToExamples(store: Store, doc: OpenApiDocument): Promise<void> {
  return store.transaction(async (tx) => {
    await tx.clear();
    await insertSeed(tx, doc);
  });
}
