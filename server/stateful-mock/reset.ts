// `POST /_mock/reset` — the stateful mock's seed back without a restart (`npm run mock -- --reset`),
// for example before each end-to-end test of a frontend. Mounted only in the stateful mock; like the
// rest of the mock it needs no particular key, and CORS lets a test page call it.
import { Router } from 'express';
import { loadDocument } from '../../packages/api/src/document.ts';
import type { Store } from '../store/store.ts';
import { resetToExamples } from './seed.ts';

export const MOCK_RESET_PATH = '/_mock/reset';

export function mockResetRouter(store: Store): Router {
  const router = Router();
  router.post('/', async (_req, res) => {
    await resetToExamples(store, loadDocument());
    res.status(204).end();
  });
  return router;
}
