// /v1/webhooks: the URL policy runs before anything is written; the secret goes into the store
// and never comes back out through these handlers.
import { Router, type Request } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { newId } from '../domain/ids.ts';
import { checkIfMatch, sendRead, sendResource } from '../http/etag.ts';
import { respondCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import { ProblemError } from '../http/problems.ts';
import { deleteWebhook, getWebhook, insertWebhook, listWebhooks, replaceWebhook } from '../store/webhooks.ts';
import type { RouteContext, WebhookUrlCheck } from './context.ts';
import { finder } from './found.ts';

type ListQuery = NonNullable<operations['listWebhooks']['parameters']['query']>;

async function checkUrl(check: WebhookUrlCheck, req: Request): Promise<void> {
  const reason = await check((req.body as components['schemas']['WebhookCreate' | 'WebhookUpdate']).url);
  if (reason !== undefined) {
    throw new ProblemError('url-not-allowed', `The webhook URL is not allowed: ${reason}`, [{ pointer: '/body/url', message: reason }]);
  }
}

export function webhooksRouter({ db, now, checkWebhookUrl }: RouteContext): Router {
  const router = Router();
  const found = finder((id) => getWebhook(db, id), 'webhook');

  router.get(
    '/',
    listHandler(
      'webhooks',
      ({ enabled, event }: ListQuery) => ({ enabled, event }),
      (filters, after, limit) => listWebhooks(db, filters, after, limit),
    ),
  );

  router.post('/', async (req, res) => {
    await checkUrl(checkWebhookUrl, req);
    const at = now();
    respondCreated(req, res, db, at, () => {
      const webhook = insertWebhook(db, newId('whk', at.getTime()), req.body as components['schemas']['WebhookCreate'], at.toISOString());
      return { location: `/v1/webhooks/${webhook.id}`, resource: webhook };
    });
  });

  router.get('/:id', (req, res) => sendRead(req, res, found(req.params.id)));

  router.put('/:id', async (req, res) => {
    found(req.params.id);
    await checkUrl(checkWebhookUrl, req);
    // Re-read after the asynchronous URL check so If-Match is judged against the latest state.
    checkIfMatch(req, found(req.params.id));
    sendResource(res, 200, replaceWebhook(db, req.params.id, req.body as components['schemas']['WebhookUpdate'], now().toISOString())!);
  });

  router.delete('/:id', (req, res) => {
    checkIfMatch(req, found(req.params.id));
    deleteWebhook(db, req.params.id);
    res.status(204).end();
  });

  return router;
}
