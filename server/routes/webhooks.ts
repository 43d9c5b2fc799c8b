// /v1/webhooks: the URL policy runs before anything is written; the secret goes into the store
// and never comes back out through these handlers.
import { type Request, Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { newId } from '../domain/ids.ts';
import { newWebhook, replacedWebhook } from '../domain/webhooks.ts';
import { sendRead, sendResource, writeIfMatch } from '../http/etag.ts';
import { respondCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import { ProblemError } from '../http/problems.ts';
import type { Store } from '../store/store.ts';
import type { RouteContext, WebhookUrlCheck } from './context.ts';
import { finder } from './found.ts';

type ListQuery = NonNullable<operations['listWebhooks']['parameters']['query']>;

async function checkUrl(check: WebhookUrlCheck, req: Request): Promise<void> {
  const reason = await check((req.body as components['schemas']['WebhookCreate' | 'WebhookUpdate']).url);
  if (reason !== undefined) {
    throw new ProblemError('url-not-allowed', `The webhook URL is not allowed: ${reason}`, [{ pointer: '/body/url', message: reason }]);
  }
}

const found = finder((store: Store, id) => store.webhooks.get(id), 'webhook');

export function webhooksRouter({ store, now, checkWebhookUrl }: RouteContext): Router {
  const router = Router();

  router.get(
    '/',
    listHandler(
      'webhooks',
      ({ enabled, event }: ListQuery) => ({ enabled, event }),
      (filters, after, limit) => store.webhooks.list(filters, after, limit),
    ),
  );

  router.post('/', async (req, res) => {
    await checkUrl(checkWebhookUrl, req);
    const at = now();
    await respondCreated(req, res, store, at, async (tx) => {
      const webhook = await tx.webhooks.insert(
        newWebhook(newId('whk', at.getTime()), req.body as components['schemas']['WebhookCreate'], at.toISOString()),
      );
      return { location: `/v1/webhooks/${webhook.id}`, resource: webhook };
    });
  });

  router.get('/:id', async (req, res) => sendRead(req, res, await found(store, req.params.id)));

  router.put('/:id', async (req, res) => {
    await found(store, req.params.id);
    await checkUrl(checkWebhookUrl, req);
    // Judged after the asynchronous URL check, against the state the write replaces.
    const id = req.params.id;
    const webhook = await writeIfMatch(
      req,
      store,
      (tx) => found(tx, id),
      async (tx, current) =>
        (await tx.webhooks.replace(replacedWebhook(current, req.body as components['schemas']['WebhookUpdate'], now().toISOString())))!,
    );
    sendResource(res, 200, webhook);
  });

  router.delete('/:id', async (req, res) => {
    await writeIfMatch(
      req,
      store,
      (tx) => found(tx, req.params.id),
      (tx) => tx.webhooks.delete(req.params.id),
    );
    res.status(204).end();
  });

  return router;
}
