// The offline docs page at /docs: served from memory (re-read when the file changes, so a rebuild
// shows without a restart) with a strong ETag and `Cache-Control: no-cache`, so a browser keeps it
// and revalidates each visit with one small 304. Redoc's sidebar links are paths from the root
// (/section/authentication, /policies, ...) that it routes itself; opened in a new tab they reach
// the server, which sends them to the page with the route as the fragment Redoc reads.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Request, Response, Router } from 'express';
import { loadDocument } from '../../lib/document.ts';
import { etagOfBytes } from '../domain/etag.ts';
import { sendCached } from './etag.ts';
import { sendProblem } from './problems.ts';

export const DOCS_PATH = '/docs';

interface Page {
  version: string;
  body: Buffer;
  etag: string;
}

/** Reads the page when its size or modification time changed since the last request. */
function pageReader(path: string): () => Page | undefined {
  let page: Page | undefined;
  return () => {
    let version: string;
    try {
      const stat = statSync(path);
      version = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return undefined;
    }
    if (page?.version !== version) {
      const body = readFileSync(path);
      page = { version, body, etag: etagOfBytes(body) };
    }
    return page;
  };
}

/**
 * Mounts GET /docs, its deep links (/docs/<route> and Redoc's own root-level routes, each a
 * redirect to /docs#/<route>) and GET / (a redirect to /docs).
 */
export function mountDocsPage(router: Router, docsPath: string): void {
  const read = pageReader(resolve(docsPath));
  router.get('/', (_req, res) => res.redirect(302, DOCS_PATH));
  router.get(DOCS_PATH, (req, res) => {
    const page = read();
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
