// /v1/webhooks: the URL policy runs before anything is written; the secret goes into the store
// and never comes back out through these handlers.
import { Router, type Request } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { newId } from '../domain/ids.ts';
import { checkIfMatch, sendRead, sendResource } from '../http/etag.ts';
import { respondCreated } from '../http/idempotency.ts';
import { page, pageRequest } from '../http/pages.ts';
import { ProblemError } from '../http/problems.ts';
import { deleteWebhook, getWebhook, insertWebhook, listWebhooks, replaceWebhook } from '../store/webhooks.ts';
import type { RouteContext, WebhookUrlCheck } from './context.ts';

type ListQuery = NonNullable<operations['listWebhooks']['parameters']['query']>;

async function checkUrl(check: WebhookUrlCheck, req: Request): Promise<void> {
  const reason = await check((req.body as { url: string }).url);
  if (reason !== undefined) {
    throw new ProblemError('url-not-allowed', `The webhook URL is not allowed: ${reason}`, [{ pointer: '/body/url', message: reason }]);
  }
}

export function webhooksRouter({ db, now, checkWebhookUrl }: RouteContext): Router {
  const router = Router();
  const found = (id: string) => {
    const webhook = getWebhook(db, id);
    if (!webhook) throw new ProblemError('not-found', `No webhook has the id ${id}.`);
    return webhook;
  };

  router.get('/', (req, res) => {
    const { enabled, event } = req.query as ListQuery;
    const filters = { enabled, event };
    const request = pageRequest(req, 'webhooks', filters);
    const body: components['schemas']['WebhookList'] = page(listWebhooks(db, filters, request.after, request.limit), request, 'webhooks', filters);
    res.json(body);
  });

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
