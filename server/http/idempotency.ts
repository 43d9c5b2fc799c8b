// Answers of creates: 201 with the new resource, or, for a retried Idempotency-Key, the stored
// first response (the core decides replay and refusal inside the create's transaction).
import type { Request, Response } from 'express';
import type { Created, IdempotentRequest } from '../../packages/core/src/index.ts';
import { principalOf } from './auth.ts';
import { sendResource } from './etag.ts';

/** The Idempotency-Key of a create, with what the core fingerprints; undefined without one. */
export function idempotencyOf(req: Request, res: Response): IdempotentRequest | undefined {
  const key = req.header('idempotency-key');
  if (key === undefined) return undefined;
  return { owner: principalOf(res).id, key, method: req.method, path: `${req.baseUrl}${req.path}`, body: req.body };
}

export function sendCreated(res: Response, created: Created<object>): void {
  if ('resource' in created) {
    sendResource(res, 201, created.resource, created.location);
    return;
  }
  const { replay } = created;
  res.setHeader('ETag', replay.etag);
  res.setHeader('Location', replay.location);
  // As Stripe does: the caller can tell a replay from the create (the document declares it).
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(replay.status).type('application/json').send(replay.body);
}
