// /v1/findings: the life cycle rules live in server/domain/findings.ts, the events they cause
// in server/domain/events.ts; these handlers only connect HTTP to them.
import { Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import type { DomainError } from '../domain/errors.ts';
import { newFinding, updatedFinding } from '../domain/findings.ts';
import { newId } from '../domain/ids.ts';
import { problemOf, refuse } from '../http/domain-errors.ts';
import { sendRead, sendResource, writeIfMatch } from '../http/etag.ts';
import { respondCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import type { Store } from '../store/store.ts';
import type { RouteContext } from './context.ts';
import { finder } from './found.ts';

type Finding = components['schemas']['Finding'];
type ListQuery = NonNullable<operations['listFindings']['parameters']['query']>;

function orThrow(result: Finding | DomainError): Finding {
  if ('kind' in result) throw problemOf(result);
  return result;
}

const found = finder((store: Store, id) => store.findings.get(id), 'finding');

export function findingsRouter({ store, now }: RouteContext): Router {
  const router = Router();

  router.get(
    '/',
    listHandler(
      'findings',
      ({ status, severity, device_id, policy_id }: ListQuery) => ({ status, severity, device_id, policy_id }),
      (filters, after, limit) => store.findings.list(filters, after, limit),
    ),
  );

  router.post('/', async (req, res) => {
    const at = now();
    await respondCreated(req, res, store, at, async (tx) => {
      const finding = orThrow(newFinding(newId('fnd', at.getTime()), req.body as components['schemas']['FindingCreate'], at.toISOString()));
      refuse(await tx.findings.write(null, finding, at.toISOString()));
      return { location: `/v1/findings/${finding.id}`, resource: finding };
    });
  });

  router.get('/:id', async (req, res) => sendRead(req, res, await found(store, req.params.id)));

  router.put('/:id', async (req, res) => {
    const at = now().toISOString();
    const next = await writeIfMatch(
      req,
      store,
      (tx) => found(tx, req.params.id),
      async (tx, current) => {
        const updated = orThrow(updatedFinding(current, req.body as components['schemas']['FindingUpdate'], at));
        refuse(await tx.findings.write(current, updated, at));
        return updated;
      },
    );
    sendResource(res, 200, next);
  });

  router.delete('/:id', async (req, res) => {
    await writeIfMatch(
      req,
      store,
      (tx) => found(tx, req.params.id),
      (tx, current) => tx.findings.write(current, null, now().toISOString()),
    );
    res.status(204).end();
  });

  return router;
}
