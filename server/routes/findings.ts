// /v1/findings: the life cycle, its events and the policy link are the core's use cases
// (packages/core/); these handlers only connect HTTP to them.
import { Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { settled } from '../http/domain-errors.ts';
import { sendRead, sendResource } from '../http/etag.ts';
import { idempotencyOf, sendCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import { core } from '../platform.ts';
import type { RouteContext } from './context.ts';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listFindings']['parameters']['query']>;

export function findingsRouter({ store, now }: RouteContext): Router {
  const router = Router();
  const { findings } = core;
  router.get(
    '/',
    listHandler(
      ({ status, severity, device_id, policy_id }: ListQuery) => ({ status, severity, device_id, policy_id }),
      (filters, cursor, limit) => findings.list(store, filters, cursor, limit),
    ),
  );
  router.post('/', async (req, res) => {
    sendCreated(res, settled(await findings.create(store, req.body as Schemas['FindingCreate'], now(), idempotencyOf(req, res))));
  });
  router.get('/:id', async (req, res) => sendRead(req, res, settled(await findings.read(store, req.params.id))));
  router.put('/:id', async (req, res) => {
    const body = req.body as Schemas['FindingUpdate'];
    sendResource(res, 200, settled(await findings.replace(store, req.params.id, body, req.header('if-match'), now())));
  });
  router.delete('/:id', async (req, res) => {
    settled(await findings.remove(store, req.params.id, req.header('if-match'), now()));
    res.status(204).end();
  });
  return router;
}
