// Conditional requests on top of the domain's ETag rules: 304 for a matching If-None-Match on
// reads, 412 for a failed If-Match on writes (checked inside the write's transaction), and the ETag header on every representation.
import type { Request, Response } from 'express';
import { etagOf, ifNoneMatchHits } from '../domain/etag.ts';
import { IF_MATCH_FAILED, writeIfMatch as writeIfMatchInStore } from '../store/conditional.ts';
import type { Store } from '../store/store.ts';
import { ProblemError } from './problems.ts';

/** Sends a resource with its ETag (and Location for a create) through res.json, so it is validated. */
export function sendResource(res: Response, status: 200 | 201, resource: object, location?: string): void {
  res.setHeader('ETag', etagOf(resource));
  if (location !== undefined) res.setHeader('Location', location);
  res.status(status).json(resource);
}

/** Answers a GET: 304 without a body when If-None-Match names the current ETag. */
export function sendRead(req: Request, res: Response, resource: object): void {
  const etag = etagOf(resource);
  if (ifNoneMatchHits(req.header('if-none-match'), etag)) {
    res.setHeader('ETag', etag);
    res.status(304).end();
    return;
  }
  sendResource(res, 200, resource);
}

/**
 * Sends a document kept in memory (the docs page, the settings page and script) with its strong
 * ETag and `Cache-Control: no-cache`: browsers keep it and revalidate each visit with a small 304.
 */
export function sendCached(req: Request, res: Response, page: { body: string | Buffer; etag: string; type: string }): void {
  res.setHeader('ETag', page.etag);
  res.setHeader('Cache-Control', 'no-cache');
  res.type(page.type);
  if (req.fresh) return void res.status(304).end();
  res.send(page.body);
}

/**
 * Writes only if If-Match (when sent) names the current resource's ETag, checked in the write's
 * transaction; throws 412 otherwise (and whatever `current` throws, such as a 404).
 */
export async function writeIfMatch<T extends object, R>(
  req: Request,
  store: Store,
  current: (tx: Store) => Promise<T>,
  write: (tx: Store, current: T) => Promise<R>,
): Promise<R> {
  const outcome = await writeIfMatchInStore(store, req.header('if-match'), current, write);
  if (outcome === IF_MATCH_FAILED) {
    throw new ProblemError('precondition-failed', 'The resource has changed since the ETag you sent; fetch it again.');
  }
  return outcome.written;
}
