// /v1/webhooks: the URL policy runs before anything is written; the secret goes into the store
// and never comes back out through these handlers. The rest is the core's use cases.
import { type Request, Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { settled } from '../http/domain-errors.ts';
import { sendRead, sendResource } from '../http/etag.ts';
import { idempotencyOf, sendCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import { ProblemError } from '../http/problems.ts';
import { core } from '../platform.ts';
import type { RouteContext, WebhookUrlCheck } from './context.ts';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listWebhooks']['parameters']['query']>;

async function checkUrl(check: WebhookUrlCheck, req: Request): Promise<void> {
  const reason = await check((req.body as Schemas['WebhookCreate' | 'WebhookUpdate']).url);
  if (reason !== undefined) {
    throw new ProblemError('url-not-allowed', `The webhook URL is not allowed: ${reason}`, [{ pointer: '/body/url', message: reason }]);
  }
}

export function webhooksRouter({ store, now, checkWebhookUrl }: RouteContext): Router {
  const router = Router();
  const { webhooks } = core;
  router.get(
    '/',
    listHandler(
      ({ enabled, event }: ListQuery) => ({ enabled, event }),
      (filters, cursor, limit) => webhooks.list(store, filters, cursor, limit),
    ),
  );
  router.post('/', async (req, res) => {
    await checkUrl(checkWebhookUrl, req);
    sendCreated(res, settled(await webhooks.create(store, req.body as Schemas['WebhookCreate'], now(), idempotencyOf(req, res))));
  });
  router.get('/:id', async (req, res) => sendRead(req, res, settled(await webhooks.read(store, req.params.id))));
  router.put('/:id', async (req, res) => {
    settled(await webhooks.read(store, req.params.id));
    await checkUrl(checkWebhookUrl, req);
    // Judged after the asynchronous URL check, against the state the write replaces.
    const body = req.body as Schemas['WebhookUpdate'];
    sendResource(res, 200, settled(await webhooks.replace(store, req.params.id, body, req.header('if-match'), now())));
  });
  router.delete('/:id', async (req, res) => {
    settled(await webhooks.remove(store, req.params.id, req.header('if-match'), now()));
    res.status(204).end();
  });
  return router;
}
