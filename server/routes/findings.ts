// /v1/findings: the life cycle rules live in server/domain/findings.ts, the events they cause
// in server/domain/events.ts; these handlers only connect HTTP to them.
import { Router } from 'express';
import type { components, operations } from '../../generated/schema.d.ts';
import { newFinding, updatedFinding, type DomainError } from '../domain/findings.ts';
import { newId } from '../domain/ids.ts';
import { sendRead, sendResource, writeIfMatch } from '../http/etag.ts';
import { respondCreated } from '../http/idempotency.ts';
import { listHandler } from '../http/pages.ts';
import { invalid, ProblemError } from '../http/problems.ts';
import { getFinding, listFindings, writeFinding } from '../store/sqlite/findings.ts';
import type { RouteContext } from './context.ts';
import { finder } from './found.ts';

type Finding = components['schemas']['Finding'];
type ListQuery = NonNullable<operations['listFindings']['parameters']['query']>;

function orThrow(result: Finding | DomainError): Finding {
  if ('kind' in result) {
    throw result.kind === 'invalid-transition' ? new ProblemError('invalid-transition', result.detail) : invalid(result.pointer, result.message);
  }
  return result;
}

const unknownPolicy = (id: string | null) => invalid('/body/policy_id', `no policy has the id ${String(id)}`);

export function findingsRouter({ db, now }: RouteContext): Router {
  const router = Router();
  const found = finder((id) => getFinding(db, id), 'finding');

  router.get(
    '/',
    listHandler(
      'findings',
      ({ status, severity, device_id, policy_id }: ListQuery) => ({ status, severity, device_id, policy_id }),
      (filters, after, limit) => listFindings(db, filters, after, limit),
    ),
  );

  router.post('/', (req, res) => {
    const at = now();
    respondCreated(req, res, db, at, () => {
      const finding = orThrow(newFinding(newId('fnd', at.getTime()), req.body as components['schemas']['FindingCreate'], at.toISOString()));
      if (writeFinding(db, null, finding, at.toISOString()) === 'unknown-policy') throw unknownPolicy(finding.policy_id);
      return { location: `/v1/findings/${finding.id}`, resource: finding };
    });
  });

  router.get('/:id', (req, res) => sendRead(req, res, found(req.params.id)));

  router.put('/:id', (req, res) => {
    const at = now().toISOString();
    const next = writeIfMatch(req, db, () => found(req.params.id), (current) => {
      const updated = orThrow(updatedFinding(current, req.body as components['schemas']['FindingUpdate'], at));
      if (writeFinding(db, current, updated, at) === 'unknown-policy') throw unknownPolicy(updated.policy_id);
      return updated;
    });
    sendResource(res, 200, next);
  });

  router.delete('/:id', (req, res) => {
    writeIfMatch(req, db, () => found(req.params.id), (current) => writeFinding(db, current, null, now().toISOString()));
    res.status(204).end();
  });

  return router;
}
