// Operational endpoints outside the /v1 contract: liveness, readiness, the document itself, the
// offline docs page and the pages' icon. None needs an API key.
import compression from 'compression';
import { Router } from 'express';
import { bundledJsonPath, bundledYamlPath } from '../../common/document-files.ts';
import { FAVICON_PATHS, FAVICON_SVG } from '../../common/favicon.ts';
import { digests } from '../platform.ts';
import type { DatabaseHealth } from './database-health.ts';
import { DOCS_PATH, mountDocsPage } from './docs-page.ts';
import { sendCached } from './etag.ts';

export interface OperationsOptions {
  health: DatabaseHealth;
  docsPath: string;
  /** False once shutdown has begun, so load balancers stop sending traffic. */
  isAccepting: () => boolean;
}

export function operationsRouter({ health, docsPath, isAccepting }: OperationsOptions): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Within READINESS_TIMEOUT_MS whatever the database does, so a health check never times out.
  router.get('/readyz', async (_req, res) => {
    const { ready, reason } = isAccepting() ? await health.check() : { ready: false, reason: 'shutting down' };
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', ...(reason ? { reason } : {}) });
  });
  // The document and the docs page are large and compress well (the page from 2.7 MB to ~0.6 MB).
  // The compressible-types list compression() consults does not include application/yaml.
  const compressible: compression.CompressionFilter = (req, res) =>
    compression.filter(req, res) || /yaml/.test(String(res.getHeader('Content-Type')));
  router.use(['/openapi.json', '/openapi.yaml', DOCS_PATH], compression({ filter: compressible }));
  router.get('/openapi.json', (_req, res) => res.type('application/json').sendFile(bundledJsonPath));
  router.get('/openapi.yaml', (_req, res) => res.type('application/yaml').sendFile(bundledYamlPath));
  mountDocsPage(router, docsPath);
  const icon = { body: FAVICON_SVG, etag: digests.etagOfBytes(FAVICON_SVG), type: 'image/svg+xml' };
  router.get(FAVICON_PATHS, (req, res) => sendCached(req, res, icon));
  return router;
}
