// Checks that need a target that remembers: what a create makes is readable, the CRUD life cycle
// with ETags and preconditions, deletes that stay deleted, idempotent creates, pagination over every
// page, and the 405 of a method a path does not have.
import { randomUUID } from 'node:crypto';
import type { KitContext } from '../context.ts';
import { type OperationModel, type ResourceModel, successStatuses } from '../spec.ts';
import { ContractViolation } from '../verify.ts';

export type Crud = Required<Pick<ResourceModel, 'create' | 'read' | 'list' | 'update' | 'delete'>> & ResourceModel;

export function isCrud(resource: ResourceModel): resource is Crud {
  return Boolean(resource.create && resource.read && resource.list && resource.update && resource.delete);
}

export function fail(op: OperationModel, check: string, message: string, details: string[] = []): never {
  throw new ContractViolation(op.label, check, [{ aspect: 'expectation', message, details }]);
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

  const [update] = await ctx.validBodies(resource.update, 1);
  const oldTag = created.headers.get('etag') ?? '';
  const updated = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  ctx.expect(resource.update, check, updated, { statuses: successStatuses(resource.update) }, 'update with the current ETag in If-Match');
  const newTag = updated.headers.get('etag') ?? '';
  if (newTag === oldTag) fail(resource.update, check, `the ETag did not change on update (${newTag})`);
  if (typeof firstVersion === 'number' && versionOf(updated.json) !== firstVersion + 1) {
    fail(
      resource.update,
      check,
      `version went from ${firstVersion} to ${String(versionOf(updated.json))} on one update; it must go up by exactly one`,
    );
  }

  const stale = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  ctx.expect(resource.update, check, stale, { statuses: [412] }, 'update with a stale If-Match');
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
    ctx.expect(resource.read, check, notModified, { statuses: [304] }, 'If-None-Match with the current ETag');
    const modified = await ctx.send(resource.read, { id, headers: { 'If-None-Match': oldTag } });
    ctx.expect(resource.read, check, modified, { statuses: [200] }, 'If-None-Match with an old ETag');
  }

  if (resource.delete.responses.has('412')) {
    const staleDelete = await ctx.send(resource.delete, { id, headers: { 'If-Match': oldTag } });
    ctx.expect(resource.delete, check, staleDelete, { statuses: [412] }, 'delete with a stale If-Match');
  }
  const deleted = await ctx.send(resource.delete, { id, headers: { 'If-Match': newTag } });
  ctx.expect(resource.delete, check, deleted, { statuses: successStatuses(resource.delete) }, 'delete with the current ETag');
}

/** `use-after-delete`: once a delete succeeded, the resource is gone from reads, updates, deletes and the list. */
export async function useAfterDelete(ctx: KitContext, resource: Crud, check: string): Promise<void> {
  const { id } = await ctx.create(resource, check);
  const [update] = await ctx.validBodies(resource.update, 1);
  ctx.expect(resource.delete, check, await ctx.send(resource.delete, { id }), { statuses: successStatuses(resource.delete) }, 'delete');
  ctx.expect(resource.read, check, await ctx.send(resource.read, { id }), { statuses: [404] }, 'read after delete');
  ctx.expect(resource.update, check, await ctx.send(resource.update, { id, body: update }), { statuses: [404] }, 'update after delete');
  ctx.expect(resource.delete, check, await ctx.send(resource.delete, { id }), { statuses: [404] }, 'second delete');
  const listed = await ctx.send(resource.list, { query: { limit: '100' } });
  ctx.expect(resource.list, check, listed, { statuses: [200] }, 'list after delete');
  if (idsOf(listed.json).includes(id)) fail(resource.list, check, `the deleted ${id} is still on the list`);
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
  const [first, other] = await ctx.validBodies(resource.create, 2);
  const { id, exchange: original } = await ctx.create(resource, check, first, { [header]: key });
  const replay = await ctx.send(resource.create, { body: first, headers: { [header]: key } });
  ctx.expect(resource.create, check, replay, { statuses: [original.status] }, `the same ${header} and body again`);
  const replayedId = (replay.json as { id?: unknown }).id;
  if (replayedId !== id) fail(resource.create, check, `the retry created ${String(replayedId)} instead of replaying ${id}`);
  const marker = resource.create.responses.get(String(original.status))?.headers.find((h) => h.name.toLowerCase() === REPLAYED_HEADER);
  if (marker) {
    if (original.headers.get(REPLAYED_HEADER) !== null) fail(resource.create, check, `the first response already carries ${marker.name}`);
    if (replay.headers.get(REPLAYED_HEADER) !== 'true') {
      fail(
        resource.create,
        check,
        `the replay carries ${marker.name}: ${String(replay.headers.get(REPLAYED_HEADER))}, not true (the document declares it)`,
      );
    }
  }
  const reused = await ctx.send(resource.create, {
    body: { ...(other as object), ...(JSON.stringify(other) === JSON.stringify(first) ? { description: 'different' } : {}) },
    headers: { [header]: key },
  });
  ctx.expect(resource.create, check, reused, { statuses: [409] }, `the same ${header} with another body`);
}

const PAGE_LIMIT = 2;
const PAGE_ITEMS = 5;
const MAX_PAGES = 2_000;

/** Walks every page with a small limit: no duplicates, nothing created is missed, newest first. */
export async function pagination(ctx: KitContext, resource: Crud, check: string, cases: number): Promise<void> {
  // At least two pages of the kit's own; more when the generated cases allow (a time budget samples
  // them down). Its items that earlier checks left count (a list on the read key spends none of the
  // writes' quota); only the rest are created.
  const wanted = Math.min(PAGE_ITEMS, PAGE_LIMIT + cases);
  const present = new Set(idsOf((await ctx.send(resource.list, { query: { limit: '100' } })).json));
  const mine = ctx
    .createdIds(resource)
    .filter((id) => present.has(id))
    .slice(-wanted);
  while (mine.length < wanted) mine.push((await ctx.create(resource, check)).id);
  const seen: { id: string; created_at: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const exchange = await ctx.send(resource.list, { query: { limit: String(PAGE_LIMIT), ...(cursor ? { cursor } : {}) } });
    ctx.expect(resource.list, check, exchange, { statuses: [200] }, `page ${pages + 1} with limit ${PAGE_LIMIT}`);
    const page = exchange.json as { data: { id: string; created_at: string }[]; next_cursor: string | null };
    if (page.data.length > PAGE_LIMIT)
      fail(resource.list, check, `page ${pages + 1} has ${page.data.length} items, over limit ${PAGE_LIMIT}`);
    if (page.next_cursor !== null && page.data.length === 0) fail(resource.list, check, `page ${pages + 1} is empty but has a next_cursor`);
    seen.push(...page.data);
    cursor = page.next_cursor;
    if (++pages > MAX_PAGES) fail(resource.list, check, `more than ${MAX_PAGES} pages: the cursor never ends`);
  } while (cursor !== null);

  const ids = seen.map((item) => item.id);
  const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (duplicates.length > 0) fail(resource.list, check, `the walk returned duplicates`, duplicates.slice(0, 5));
  const missing = mine.filter((id) => !ids.includes(id));
  if (missing.length > 0) fail(resource.list, check, `the walk skipped items that exist (gaps)`, missing);
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    if (a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id)) {
      fail(resource.list, check, `items ${i - 1} and ${i} are not newest first by (created_at, id)`, [
        JSON.stringify(a),
        JSON.stringify(b),
      ]);
    }
  }
}

function idsOf(json: unknown): string[] {
  return ((json as { data?: { id?: string }[] })?.data ?? []).map((item) => String(item.id));
}
