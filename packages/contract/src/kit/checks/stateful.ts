// Checks that need a target that remembers: what a create makes is readable, the CRUD life cycle
// with ETags and preconditions, deletes that stay deleted, idempotent creates, and the 405 of a
// method a path does not have.
import { randomUUID } from 'node:crypto';
import type { KitContext } from '../context.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { schemaRule, sentenceRule, statedAt, statedFor, statedOfHeader, statedOfParam, statedOfResponse } from '../rules/stated.ts';
import { type OperationModel, type ResourceModel, successStatuses } from '../spec.ts';
import { ContractViolation, rulesViolated } from '../verify.ts';
import { hasNestedLeaves, nestedVariant } from './nested-variant.ts';

export type Crud = Required<Pick<ResourceModel, 'create' | 'read' | 'list' | 'update' | 'delete'>> & ResourceModel;

export function isCrud(resource: ResourceModel): resource is Crud {
  return Boolean(resource.create && resource.read && resource.list && resource.update && resource.delete);
}

/** Throws the failure, naming each catalogue rule in `rules` it breaks. */
export function fail(op: OperationModel, check: string, message: string, details: string[] = [], rules: readonly RuleId[] = []): never {
  throw new ContractViolation(op.label, check, rulesViolated(rules, message, details));
}

/** `available-after-create`: what a create answers is readable at once, by id and on the list. */
export async function availableAfterCreate(ctx: KitContext, resource: Crud, check: string): Promise<void> {
  const { id, exchange: created } = await ctx.create(resource, check);
  const read = await ctx.send(resource.read, { id });
  ctx.expect(resource.read, check, read, { statuses: [200] }, `read right after creating ${id}`);
  if ((read.json as { id?: unknown }).id !== id)
    fail(resource.read, check, `read returned id ${String((read.json as { id?: unknown }).id)}, not ${id}`);
  const createdTag = created.headers.get('etag');
  if (createdTag !== null && read.headers.get('etag') !== createdTag) {
    fail(
      resource.read,
      check,
      `the ETag of an unchanged resource differs between create (${createdTag}) and read (${String(read.headers.get('etag'))})`,
    );
  }
  const listed = await ctx.send(resource.list, { query: { limit: '100' } });
  ctx.expect(resource.list, check, listed, { statuses: [200] }, 'list right after create');
  if (!idsOf(listed.json).includes(id)) fail(resource.list, check, `the new ${id} is not on the first page of the list, newest first`);
}

/**
 * `lifecycle`: update with the current ETag (a new ETag, `version` up by exactly one), a stale
 * If-Match (412, nothing changes), If-None-Match (304 / 200), then delete with If-Match.
 */
export async function lifecycle(ctx: KitContext, resource: Crud, check: string): Promise<void> {
  const { id, exchange: created } = await ctx.create(resource, check);
  const versionOf = (json: unknown) => (json as { version?: unknown }).version;
  const firstVersion = versionOf(created.json);
  const sentence = {
    ifMatch: sentenceRule(resource.update, /If-Match/),
    stale: sentenceRule(resource.update, /`412`/),
    newTag: sentenceRule(resource.update, /new `ETag`/),
    version: schemaRule('/properties/version/description', /increases by one/),
    deleteIfMatch: sentenceRule(resource.delete, /If-Match/),
  };

  const [update] = await ctx.validBodies(resource.update, 1);
  const oldTag = created.headers.get('etag') ?? '';
  const updated = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  const refusedMatch = updated.status === 412 ? statedOfResponse(resource.update, '412', /If-Match/) : [];
  const current = 'update with the current ETag in If-Match';
  ctx.expect(
    resource.update,
    check,
    updated,
    { statuses: successStatuses(resource.update), rules: [...refusedMatch, ...sentence.ifMatch] },
    current,
  );
  const newTag = updated.headers.get('etag') ?? '';
  if (newTag === oldTag) {
    const representation = statedOfHeader(resource.update, '200', 'etag', /returned representation/);
    fail(resource.update, check, `the ETag did not change on update (${newTag})`, [], [...representation, ...sentence.newTag]);
  }
  if (typeof firstVersion === 'number' && versionOf(updated.json) !== firstVersion + 1) {
    fail(
      resource.update,
      check,
      `version went from ${firstVersion} to ${String(versionOf(updated.json))} on one update; it must go up by exactly one`,
      [],
      sentence.version,
    );
  }

  const stale = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  const staleUpdate = staleMatchRules(resource.update, resource);
  ctx.expect(
    resource.update,
    check,
    stale,
    { statuses: [412], rules: [...staleUpdate, ...sentence.stale] },
    'update with a stale If-Match',
  );
  const afterStale = await ctx.send(resource.read, { id });
  ctx.expect(resource.read, check, afterStale, { statuses: [200] }, 'read after a refused update');
  if (afterStale.headers.get('etag') !== newTag || versionOf(afterStale.json) !== versionOf(updated.json)) {
    fail(
      resource.read,
      check,
      `a refused update (412) changed the resource: ETag ${String(afterStale.headers.get('etag'))}, version ${String(versionOf(afterStale.json))}`,
    );
  }

  if (resource.read.responses.has('304')) {
    const notModified = await ctx.send(resource.read, { id, headers: { 'If-None-Match': newTag } });
    const unchanged = [
      ...statedFor(resource.read, /If-None-Match/),
      ...statedOfParam(resource.read, 'if-none-match', /304/),
      ...statedOfHeader(resource.read, '200', 'etag', /304/),
    ];
    ctx.expect(resource.read, check, notModified, { statuses: [304], rules: unchanged }, 'If-None-Match with the current ETag');
    const modified = await ctx.send(resource.read, { id, headers: { 'If-None-Match': oldTag } });
    const changed = modified.status === 304 ? statedOfResponse(resource.read, '304', /If-None-Match/) : [];
    ctx.expect(resource.read, check, modified, { statuses: [200], rules: changed }, 'If-None-Match with an old ETag');
  }

  if (resource.delete.responses.has('412')) {
    const staleDelete = await ctx.send(resource.delete, { id, headers: { 'If-Match': oldTag } });
    const rules = staleMatchRules(resource.delete, resource);
    ctx.expect(
      resource.delete,
      check,
      staleDelete,
      { statuses: [412], rules: [...rules, ...sentence.deleteIfMatch] },
      'delete with a stale If-Match',
    );
  }
  const deleted = await ctx.send(resource.delete, { id, headers: { 'If-Match': newTag } });
  const okDelete = successStatuses(resource.delete);
  ctx.expect(resource.delete, check, deleted, { statuses: okDelete, rules: sentence.deleteIfMatch }, 'delete with the current ETag');
}

/** What a change with a stale If-Match that is not refused breaks: the parameter, the ETag header and the concurrency rule. */
function staleMatchRules(op: OperationModel, resource: Crud): RuleId[] {
  return [
    ...statedOfParam(op, 'if-match', /412/),
    ...statedOfHeader(resource.read, '200', 'etag', /412/),
    ...statedAt('/info/description', /If-Match.*`412`/),
  ];
}

/** `use-after-delete`: once a delete succeeded, the resource is gone from reads, updates, deletes and the list. */
export async function useAfterDelete(ctx: KitContext, resource: Crud, check: string): Promise<void> {
  const { id } = await ctx.create(resource, check);
  const [update] = await ctx.validBodies(resource.update, 1);
  // "Deletes the …": what the delete's description says first.
  const deletes = sentenceRule(resource.delete, /^Deletes/);
  ctx.expect(resource.delete, check, await ctx.send(resource.delete, { id }), { statuses: successStatuses(resource.delete) }, 'delete');
  const gone = ['response.NotFound.1' as const];
  ctx.expect(
    resource.read,
    check,
    await ctx.send(resource.read, { id }),
    { statuses: [404], rules: [...gone, ...deletes] },
    'read after delete',
  );
  ctx.expect(
    resource.update,
    check,
    await ctx.send(resource.update, { id, body: update }),
    { statuses: [404], rules: deletes },
    'update after delete',
  );
  ctx.expect(resource.delete, check, await ctx.send(resource.delete, { id }), { statuses: [404], rules: deletes }, 'second delete');
  const listed = await ctx.send(resource.list, { query: { limit: '100' } });
  ctx.expect(resource.list, check, listed, { statuses: [200] }, 'list after delete');
  if (idsOf(listed.json).includes(id)) fail(resource.list, check, `the deleted ${id} is still on the list`, [], deletes);
}

/**
 * `unsupported-method`: a method the document does not give a path answers 405 with an `Allow`
 * header naming exactly the documented ones.
 */
export async function unsupportedMethod(ctx: KitContext, operations: OperationModel[], check: string): Promise<void> {
  const [first] = operations;
  const documented = new Set(operations.map((op) => op.method.toUpperCase()));
  const method = ['PATCH', 'PUT', 'POST', 'DELETE'].find((candidate) => !documented.has(candidate));
  if (!first || !method) return;
  const exchange = await ctx.http.send({ method, path: ctx.pathOf(first, await ctx.fixture(ctx.resourceOf(first))), body: {} });
  if (exchange.status !== 405) fail(first, check, `${method} ${first.path} (not in the document) answered ${exchange.status}, not 405`);
  if (exchange.mediaType !== 'application/problem+json')
    fail(first, check, `the 405 is ${exchange.mediaType || 'without a body'}, not a problem document`);
  const allowed = new Set(
    (exchange.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS'),
  );
  const expected = [...documented].sort().join(', ');
  if ([...allowed].sort().join(', ') !== expected)
    fail(first, check, `Allow is "${exchange.headers.get('allow') ?? ''}"; the documented methods are ${expected}`);
}

const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * A create retried with the same Idempotency-Key replays the first response (marked with
 * `Idempotent-Replayed: true` when the document declares that header); another body with it is 409.
 */
export async function idempotency(ctx: KitContext, resource: Crud, header: string, check: string): Promise<void> {
  const key = randomUUID();
  // A first body with members below the top level, when the generator gives one: a body that
  // differs from it only there is sent last.
  const pool = await ctx.validBodies(resource.create, 8);
  const first = pool.find(hasNestedLeaves) ?? pool[0];
  const other = pool.find((body) => body !== first);
  const { id, exchange: original } = await ctx.create(resource, check, first, { [header]: key });
  const retriesSafe = sentenceRule(resource.create, new RegExp(header, 'i'));
  const replay = await ctx.send(resource.create, { body: first, headers: { [header]: key } });
  const replays = statedOfParam(resource.create, header.toLowerCase(), /first response again/);
  ctx.expect(
    resource.create,
    check,
    replay,
    { statuses: [original.status], rules: [...replays, ...retriesSafe] },
    `the same ${header} and body again`,
  );
  const replayedId = (replay.json as { id?: unknown }).id;
  if (replayedId !== id) {
    const rules = [...replays, ...retriesSafe];
    fail(resource.create, check, `the retry created ${String(replayedId)} instead of replaying ${id}`, [], rules);
  }
  const marker = resource.create.responses.get(String(original.status))?.headers.find((h) => h.name.toLowerCase() === REPLAYED_HEADER);
  if (marker) {
    const marks = statedOfHeader(resource.create, String(original.status), REPLAYED_HEADER, /replay/);
    if (original.headers.get(REPLAYED_HEADER) !== null)
      fail(resource.create, check, `the first response already carries ${marker.name}`, [], marks);
    if (replay.headers.get(REPLAYED_HEADER) !== 'true') {
      fail(
        resource.create,
        check,
        `the replay carries ${marker.name}: ${String(replay.headers.get(REPLAYED_HEADER))}, not true (the document declares it)`,
        [],
        marks,
      );
    }
  }
  const reused = await ctx.send(resource.create, {
    body: { ...(other as object), ...(JSON.stringify(other) === JSON.stringify(first) ? { description: 'different' } : {}) },
    headers: { [header]: key },
  });
  const conflict = [
    ...statedOfParam(resource.create, header.toLowerCase(), /409/),
    ...statedOfResponse(resource.create, '409', /already used/),
  ];
  ctx.expect(resource.create, check, reused, { statuses: [409], rules: conflict }, `the same ${header} with another body`);
  // Bodies that differ only below the top level: a comparison of top-level members would replay.
  const nested = await nestedVariant(ctx, resource.create, first);
  if (nested) {
    const again = await ctx.send(resource.create, { body: nested.body, headers: { [header]: key } });
    ctx.expect(
      resource.create,
      check,
      again,
      { statuses: [409], rules: conflict },
      `the same ${header} with a body that differs only in ${nested.at}`,
    );
  }
}

/** The ids on one page of a list answer. */
export function idsOf(json: unknown): string[] {
  return ((json as { data?: { id?: string }[] })?.data ?? []).map((item) => String(item.id));
}
