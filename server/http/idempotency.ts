// Idempotency-Key on creates: the first response is stored with a fingerprint of the request,
// in the same transaction as the create, so a retry replays it and a different body is refused.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { DatabaseSync } from 'node:sqlite';
import { etagOf } from '../domain/etag.ts';
import { transaction } from '../store/sqlite/database.ts';
import { findStoredResponse, storeResponse, type StoredResponse } from '../store/sqlite/idempotency.ts';
import { principalOf } from './auth.ts';
import { sendResource } from './etag.ts';
import { ProblemError } from './problems.ts';

export interface Created {
  location: string;
  resource: object;
}

/** JSON with sorted keys, so two bodies that differ only in key order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Runs `create` (synchronous, in one transaction with the idempotency record) and answers 201,
 * or replays the stored response for a retried Idempotency-Key.
 */
export function respondCreated(req: Request, res: Response, db: DatabaseSync, now: Date, create: () => Created): void {
  const key = req.header('idempotency-key');
  if (key === undefined) {
    const created = create();
    sendResource(res, 201, created.resource, created.location);
    return;
  }
  const owner = principalOf(res).id;
  const fingerprint = createHash('sha256').update(`${req.method} ${req.path}\n${canonical(req.body)}`).digest('hex');
  const outcome = transaction(db, (): { replay: StoredResponse } | { created: Created } => {
    const stored = findStoredResponse(db, owner, key, now);
    if (stored && stored.fingerprint !== fingerprint) {
      throw new ProblemError('idempotency-key-reused', `The Idempotency-Key ${key} was used with a different request body.`);
    }
    if (stored) return { replay: stored };
    const created = create();
    const body = JSON.stringify(created.resource);
    storeResponse(db, owner, key, { fingerprint, status: 201, location: created.location, etag: etagOf(created.resource), body }, now);
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
