// Idempotency-Key on creates: the first response is stored with a fingerprint of the request,
// in the same transaction as the create, so a retry replays it and a different body is refused.
import type { Request, Response } from 'express';
import { etagOf } from '../domain/etag.ts';
import { requestFingerprint, reusedKeyDetail } from '../domain/idempotency.ts';
import type { Store, StoredResponse } from '../store/store.ts';
import { principalOf } from './auth.ts';
import { sendResource } from './etag.ts';
import { ProblemError } from './problems.ts';

export interface Created {
  location: string;
  resource: object;
}

/**
 * Runs `create` (in one transaction with the idempotency record, so it may run again if the
 * store retries the transaction) and answers 201, or replays the stored response for a retried
 * Idempotency-Key. A concurrent duplicate, on this instance or another, waits for or retries
 * behind the first and replays it: never a second resource.
 */
export async function respondCreated(
  req: Request,
  res: Response,
  store: Store,
  now: Date,
  create: (tx: Store) => Promise<Created>,
): Promise<void> {
  const key = req.header('idempotency-key');
  if (key === undefined) {
    const created = await store.transaction(create);
    sendResource(res, 201, created.resource, created.location);
    return;
  }
  const owner = principalOf(res).id;
  const fingerprint = requestFingerprint(req.method, req.path, req.body);
  const outcome = await store.transaction(async (tx): Promise<{ replay: StoredResponse } | { created: Created }> => {
    const stored = await tx.idempotency.find(owner, key, now);
    if (stored && stored.fingerprint !== fingerprint) {
      throw new ProblemError('idempotency-key-reused', reusedKeyDetail(key));
    }
    if (stored) return { replay: stored };
    const created = await create(tx);
    const body = JSON.stringify(created.resource);
    await tx.idempotency.save(
      owner,
      key,
      { fingerprint, status: 201, location: created.location, etag: etagOf(created.resource), body },
      now,
    );
    return { created };
  });
  if ('replay' in outcome) {
    const { replay } = outcome;
    res.setHeader('ETag', replay.etag);
    res.setHeader('Location', replay.location);
    // As Stripe does: the caller can tell a replay from the create (the document declares it).
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(replay.status).type('application/json').send(replay.body);
    return;
  }
  sendResource(res, 201, outcome.created.resource, outcome.created.location);
}
