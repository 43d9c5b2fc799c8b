// The stateful mode: the 15 operations answered by the service's own core (packages/core/) over
// its in-memory adapter, seeded with the document's examples: replace semantics and defaults, the
// finding life cycle and its `409`, a finding's policy link, `policy-in-use` and unlinking, derived
// compliance, secret rotation, ETags with If-Match / If-None-Match, keyset cursors, Idempotency-Key
// replays. These handlers only turn requests into use cases and outcomes into answers.

import type { OpenApiDocument } from 'secmon-api/src/document';
import { invalidPartsDetail, problem } from '../../../../common/problems.ts';
import {
  type Created,
  createCore,
  type DomainError,
  ifNoneMatchHits,
  insertSeed,
  memoryRepository,
  type Outcome,
  portablePlatform,
} from '../../../core/src/index.ts';
import { type Answer, problemAnswer } from '../answer.ts';
import type { CheckedRequest } from '../request-check.ts';

export interface StatefulService {
  answer(request: Request, checked: CheckedRequest): Promise<Answer>;
  reset(): void;
}

type Collection = 'policies' | 'findings' | 'webhooks';

export function statefulService(doc: OpenApiDocument): StatefulService {
  const core = createCore(portablePlatform);
  const repo = memoryRepository();
  const seed = () => repo.transaction((tx) => insertSeed(tx, doc));
  let ready = seed();

  async function answer(request: Request, checked: CheckedRequest): Promise<Answer> {
    await ready;
    const path = new URL(request.url).pathname;
    const use = core[checked.template.split('/')[2] as Collection] as unknown as typeof core.policies;
    const id = checked.params.id;
    const refusal = (error: DomainError) =>
      problemAnswer(
        error.kind === 'validation'
          ? problem('validation-error', invalidPartsDetail(1), path, [{ pointer: error.pointer, message: error.message }])
          : problem(error.kind, error.detail, path),
      );
    const resource = (status: 200 | 201, body: unknown, location?: string): Answer => ({
      status,
      headers: { etag: core.digests.etagOf(body), ...(location === undefined ? {} : { location }) },
      body,
    });
    const answered = <T>(outcome: Outcome<T>, ok: (value: T) => Answer) =>
      'error' in outcome ? refusal(outcome.error) : ok(outcome.value);
    const body = checked.body as never;
    const ifMatch = request.headers.get('if-match') ?? undefined;
    const now = new Date();

    if (id === undefined && request.method === 'GET') {
      const { limit, cursor, ...filters } = checked.query as { limit?: number; cursor?: string };
      return answered(await use.list(repo, filters as never, cursor, limit ?? 20), (page) => ({ status: 200, headers: {}, body: page }));
    }
    if (id === undefined) {
      const key = request.headers.get('idempotency-key');
      const owner = request.headers.get('authorization') ?? '';
      const idempotency = key === null ? undefined : { owner, key, method: request.method, path, body: checked.body };
      return answered(await use.create(repo, body, now, idempotency), (created: Created<object>) =>
        'resource' in created
          ? resource(201, created.resource, created.location)
          : {
              status: created.replay.status,
              headers: { etag: created.replay.etag, location: created.replay.location, 'idempotent-replayed': 'true' },
              body: JSON.parse(created.replay.body),
            },
      );
    }
    if (request.method === 'GET') {
      return answered(await use.read(repo, id), (item) => {
        const etag = core.digests.etagOf(item);
        return ifNoneMatchHits(request.headers.get('if-none-match') ?? undefined, etag)
          ? { status: 304, headers: { etag } }
          : resource(200, item);
      });
    }
    if (request.method === 'PUT') return answered(await use.replace(repo, id, body, ifMatch, now), (item) => resource(200, item));
    return answered(await use.remove(repo, id, ifMatch, now), () => ({ status: 204, headers: {} }));
  }

  return {
    answer,
    reset: () => {
      ready = ready.then(() => {
        repo.clear();
        return seed();
      });
    },
  };
}
