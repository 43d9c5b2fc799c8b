// /v1/policies: thin handlers over the store; shapes come from the generated types and are
// validated by the contract validator before and after.
import { Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { newId } from '../domain/ids.ts';
import { deletionRefusal, newPolicy, replacedPolicy } from '../domain/policies.ts';
import { refuse } from '../http/domain-errors.ts';
import { sendRead, sendResource, writeIfMatch } from '../http/etag.ts';
import { respondCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import type { Store } from '../store/store.ts';
import type { RouteContext } from './context.ts';
import { finder } from './found.ts';

type PolicyWrite = components['schemas']['PolicyWrite'];
type ListQuery = NonNullable<operations['listPolicies']['parameters']['query']>;

const found = finder((store: Store, id) => store.policies.get(id), 'policy');

export function policiesRouter({ store, now }: RouteContext): Router {
  const router = Router();

  router.get(
    '/',
    listHandler(
      'policies',
      ({ enabled, severity }: ListQuery) => ({ enabled, severity }),
      (filters, after, limit) => store.policies.list(filters, after, limit),
    ),
  );

  router.post('/', async (req, res) => {
    const at = now();
    await respondCreated(req, res, store, at, async (tx) => {
      const policy = await tx.policies.insert(newPolicy(newId('pol', at.getTime()), req.body as PolicyWrite, at.toISOString()));
      return { location: `/v1/policies/${policy.id}`, resource: policy };
    });
  });

  router.get('/:id', async (req, res) => sendRead(req, res, await found(store, req.params.id)));

  router.put('/:id', async (req, res) => {
    const id = req.params.id;
    const replaced = await writeIfMatch(
      req,
      store,
      (tx) => found(tx, id),
      async (tx, current) => (await tx.policies.replace(replacedPolicy(current, req.body as PolicyWrite, now().toISOString())))!,
    );
    sendResource(res, 200, replaced);
  });

  router.delete('/:id', async (req, res) => {
    const id = req.params.id;
    await writeIfMatch(
      req,
      store,
      (tx) => found(tx, id),
      async (tx, current) => {
        refuse(deletionRefusal(current));
        await tx.policies.delete(id, now().toISOString());
      },
    );
    res.status(204).end();
  });

  return router;
}
