// /v1/policies: thin handlers over the core's use cases (policy-in-use and unlinking are its rules);
// shapes come from the generated types and are validated by the contract validator before and after.
import { Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { settled } from '../http/domain-errors.ts';
import { sendRead, sendResource } from '../http/etag.ts';
import { idempotencyOf, sendCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import { core } from '../platform.ts';
import type { RouteContext } from './context.ts';

type PolicyWrite = components['schemas']['PolicyWrite'];
type ListQuery = NonNullable<operations['listPolicies']['parameters']['query']>;

export function policiesRouter({ store, now }: RouteContext): Router {
  const router = Router();
  const { policies } = core;
  router.get(
    '/',
    listHandler(
      ({ enabled, severity }: ListQuery) => ({ enabled, severity }),
      (filters, cursor, limit) => policies.list(store, filters, cursor, limit),
    ),
  );
  router.post('/', async (req, res) => {
    sendCreated(res, settled(await policies.create(store, req.body as PolicyWrite, now(), idempotencyOf(req, res))));
  });
  router.get('/:id', async (req, res) => sendRead(req, res, settled(await policies.read(store, req.params.id))));
  router.put('/:id', async (req, res) => {
    sendResource(res, 200, settled(await policies.replace(store, req.params.id, req.body as PolicyWrite, req.header('if-match'), now())));
  });
  router.delete('/:id', async (req, res) => {
    settled(await policies.remove(store, req.params.id, req.header('if-match'), now()));
    res.status(204).end();
  });
  return router;
}
