// /v1/policies: thin handlers over the store; shapes come from the generated types and are
// validated by the contract validator before and after.
import { Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { newId } from '../domain/ids.ts';
import { sendRead, sendResource, writeIfMatch } from '../http/etag.ts';
import { respondCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import { ProblemError } from '../http/problems.ts';
import { deletePolicy, getPolicy, insertPolicy, listPolicies, replacePolicy } from '../store/sqlite/policies.ts';
import type { RouteContext } from './context.ts';
import { finder } from './found.ts';

type PolicyWrite = components['schemas']['PolicyWrite'];
type ListQuery = NonNullable<operations['listPolicies']['parameters']['query']>;

export function policiesRouter({ db, now }: RouteContext): Router {
  const router = Router();
  const found = finder((id) => getPolicy(db, id), 'policy');

  router.get(
    '/',
    listHandler(
      'policies',
      ({ enabled, severity }: ListQuery) => ({ enabled, severity }),
      (filters, after, limit) => listPolicies(db, filters, after, limit),
    ),
  );

  router.post('/', (req, res) => {
    const at = now();
    respondCreated(req, res, db, at, () => {
      const policy = insertPolicy(db, newId('pol', at.getTime()), req.body as PolicyWrite, at.toISOString());
      return { location: `/v1/policies/${policy.id}`, resource: policy };
    });
  });

  router.get('/:id', (req, res) => sendRead(req, res, found(req.params.id)));

  router.put('/:id', (req, res) => {
    const id = req.params.id;
    sendResource(res, 200, writeIfMatch(req, db, () => found(id), () => replacePolicy(db, id, req.body as PolicyWrite, now().toISOString())!));
  });

  router.delete('/:id', (req, res) => {
    const id = req.params.id;
    writeIfMatch(req, db, () => found(id), () => {
      if (deletePolicy(db, id, now().toISOString()) === 'in-use') {
        throw new ProblemError('policy-in-use', `Open or in-progress findings still reference policy ${id}; resolve or suppress them first.`);
      }
    });
    res.status(204).end();
  });

  return router;
}
