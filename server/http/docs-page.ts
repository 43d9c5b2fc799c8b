// The offline docs page at /docs: served from memory (re-read when the file changes, so a rebuild
// shows without a restart), its code samples calling the origin it is requested from, with a strong
// ETag and `Cache-Control: no-cache`, so a browser keeps it and revalidates each visit with one
// small 304. Redoc's sidebar links are paths from the root (/section/authentication, /policies,
// ...) that it routes itself; opened in a new tab they reach the server, which sends them to the
// page with the route as the fragment Redoc reads.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Request, Response, Router } from 'express';
import { sampleOrigin, withSampleOrigin } from '../../common/sample-origin.ts';
import { loadDocument } from '../../packages/api/src/document.ts';
import { digests } from '../platform.ts';
import { sendCached } from './etag.ts';
import { sendProblem } from './problems.ts';

export const DOCS_PATH = '/docs';

interface Page {
  body: Buffer;
  etag: string;
}

// A Host header is a name or an IP literal with an optional port; anything else is not put in the page.
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
// Most servers are reached under one or two names; a few more are kept, not one per Host sent.
const ORIGINS_KEPT = 4;

/**
 * The page as the origin it is requested from should see it, its code samples calling that origin
 * (common/sample-origin.ts); the file is read again when its size or modification time changed.
 */
function pageReader(path: string, built: string): (origin: string | undefined) => Page | undefined {
  let version: string | undefined;
  let html = '';
  const pages = new Map<string, Page>();
  return (origin) => {
    try {
      const stat = statSync(path);
      const current = `${stat.size}:${stat.mtimeMs}`;
      if (current !== version) {
        html = readFileSync(path, 'utf8');
        version = current;
        pages.clear();
      }
    } catch {
      return undefined;
    }
    const key = origin ?? built;
    let page = pages.get(key);
    if (!page) {
      const body = Buffer.from(origin === undefined ? html : withSampleOrigin(html, built, origin));
      page = { body, etag: digests.etagOfBytes(body) };
      if (pages.size >= ORIGINS_KEPT) pages.delete(pages.keys().next().value!);
      pages.set(key, page);
    }
    return page;
  };
}

/** The origin a request names (scheme and Host header), if its Host is one. */
function originOf(req: Request): string | undefined {
  const host = req.get('host');
  return host !== undefined && HOST.test(host) ? `${req.protocol}://${host}` : undefined;
}

/**
 * Mounts GET /docs, its deep links (/docs/<route> and Redoc's own root-level routes, each a
 * redirect to /docs#/<route>) and GET / (a redirect to /docs).
 */
export function mountDocsPage(router: Router, docsPath: string): void {
  const read = pageReader(resolve(docsPath), sampleOrigin(loadDocument()));
  router.get('/', (_req, res) => res.redirect(302, DOCS_PATH));
  router.get(DOCS_PATH, (req, res) => {
    const page = read(originOf(req));
    if (!page) return sendProblem(req, res, 'not-found', 'The docs page has not been built; run `npm run docs`.');
    sendCached(req, res, { ...page, type: 'text/html' });
  });
  const toFragment = (route: string) => (_req: Request, res: Response) => res.redirect(302, `${DOCS_PATH}#${route}`);
  router.get(`${DOCS_PATH}/*route`, (req, res) => toFragment(req.path.slice(DOCS_PATH.length))(req, res));
  for (const route of redocRoutes()) router.get([`/${route}`, `/${route}/*rest`], (req, res) => toFragment(req.path)(req, res));
}

/** The first path segments of Redoc's links: its sections, its schema list and one per tag. */
function redocRoutes(): string[] {
  const tags = (loadDocument().tags ?? []).map((tag) => tag.name.toLowerCase().replace(/\s+/g, '-'));
  return ['section', 'schemas', ...tags];
}
