// Conditional requests on top of the core's ETag rules: 304 for a matching If-None-Match on
// reads, and the ETag header on every representation (If-Match is the core's, inside the write).
import type { Request, Response } from 'express';
import { ifNoneMatchHits } from '../../packages/core/src/index.ts';
import { digests } from '../platform.ts';

/** Sends a resource with its ETag (and Location for a create) through res.json, so it is validated. */
export function sendResource(res: Response, status: 200 | 201, resource: object, location?: string): void {
  res.setHeader('ETag', digests.etagOf(resource));
  if (location !== undefined) res.setHeader('Location', location);
  res.status(status).json(resource);
}

/** Answers a GET: 304 without a body when If-None-Match names the current ETag. */
export function sendRead(req: Request, res: Response, resource: object): void {
  const etag = digests.etagOf(resource);
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
