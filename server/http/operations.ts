// Operational endpoints outside the /v1 contract: liveness, readiness, the document itself and
// the offline docs page. None needs an API key.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Router } from 'express';
import type { DatabaseSync } from 'node:sqlite';
import { bundledJsonPath, bundledYamlPath } from '../../lib/document-files.ts';
import { sendProblem } from './problems.ts';

export interface OperationsOptions {
  db: DatabaseSync;
  docsPath: string;
  /** False once shutdown has begun, so load balancers stop sending traffic. */
  isAccepting: () => boolean;
}

export function operationsRouter({ db, docsPath, isAccepting }: OperationsOptions): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', (_req, res) => {
    let ready = isAccepting();
    try {
      ready &&= db.prepare('SELECT 1 AS ok').get()?.ok === 1;
    } catch {
      ready = false;
    }
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
  });
  router.get('/openapi.json', (_req, res) => res.type('application/json').sendFile(bundledJsonPath));
  router.get('/openapi.yaml', (_req, res) => res.type('application/yaml').sendFile(bundledYamlPath));
  router.get('/docs', (req, res) => {
    const path = resolve(docsPath);
    if (!existsSync(path)) return sendProblem(req, res, 'not-found', 'The docs page has not been built; run `npm run docs`.');
    res.type('text/html').sendFile(path);
  });
  return router;
}
