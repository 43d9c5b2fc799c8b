// Checks that need a target that remembers: the CRUD life cycle with ETags and preconditions,
// pagination over every page, and a state machine's legal and illegal transitions.
import { randomUUID } from 'node:crypto';
import type { KitContext } from '../context.ts';
import type { Transitions } from '../semantics.ts';
import { successStatuses, type OperationModel, type ResourceModel } from '../spec.ts';
import { ContractViolation } from '../verify.ts';

type Crud = Required<Pick<ResourceModel, 'create' | 'read' | 'list' | 'update' | 'delete'>> & ResourceModel;

export function isCrud(resource: ResourceModel): resource is Crud {
  return Boolean(resource.create && resource.read && resource.list && resource.update && resource.delete);
}

function fail(op: OperationModel, check: string, message: string, details: string[] = []): never {
  throw new ContractViolation(op.label, check, [{ aspect: 'expectation', message, details }]);
}

/** create → read → list → update (ETag changes, stale If-Match 412, If-None-Match 304) → delete → 404s. */
export async function lifecycle(ctx: KitContext, resource: Crud, check: string): Promise<void> {
  const { id, exchange: created } = await ctx.create(resource, check);
  const createdTag = created.headers.get('etag');

  const read = await ctx.send(resource.read, { id });
  ctx.expect(resource.read, check, read, { statuses: [200] }, 'read after create');
  if ((read.json as { id?: unknown }).id !== id) fail(resource.read, check, `read returned id ${String((read.json as { id?: unknown }).id)}, not ${id}`);
  if (createdTag !== null && read.headers.get('etag') !== createdTag) {
    fail(resource.read, check, `the ETag of an unchanged resource differs between create (${createdTag}) and read (${String(read.headers.get('etag'))})`);
  }

  const listed = await ctx.send(resource.list, { query: { limit: '100' } });
  ctx.expect(resource.list, check, listed, { statuses: [200] }, 'list after create');
  if (!idsOf(listed.json).includes(id)) fail(resource.list, check, `the new ${id} is not on the first page of the list, newest first`);

  const [update] = await ctx.validBodies(resource.update, 1);
  const oldTag = read.headers.get('etag') ?? '';
  const updated = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  ctx.expect(resource.update, check, updated, { statuses: successStatuses(resource.update) }, 'update with the current ETag in If-Match');
  const newTag = updated.headers.get('etag') ?? '';
  if (newTag === oldTag) fail(resource.update, check, `the ETag did not change on update (${newTag})`);

  const stale = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  ctx.expect(resource.update, check, stale, { statuses: [412] }, 'update with a stale If-Match');

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

  ctx.expect(resource.read, check, await ctx.send(resource.read, { id }), { statuses: [404] }, 'read after delete');
  ctx.expect(resource.delete, check, await ctx.send(resource.delete, { id }), { statuses: [404] }, 'second delete');
  ctx.expect(resource.update, check, await ctx.send(resource.update, { id, body: update }), { statuses: [404] }, 'update after delete');
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
      fail(resource.create, check, `the replay carries ${marker.name}: ${String(replay.headers.get(REPLAYED_HEADER))}, not true (the document declares it)`);
    }
  }
  const reused = await ctx.send(resource.create, { body: { ...(other as object), ...(JSON.stringify(other) === JSON.stringify(first) ? { description: 'different' } : {}) }, headers: { [header]: key } });
  ctx.expect(resource.create, check, reused, { statuses: [409] }, `the same ${header} with another body`);
}

const PAGE_LIMIT = 2;
const PAGE_ITEMS = 5;
const MAX_PAGES = 2_000;

/** Walks every page with a small limit: no duplicates, nothing created is missed, newest first. */
export async function pagination(ctx: KitContext, resource: Crud, check: string): Promise<void> {
  const mine: string[] = [];
  for (let i = 0; i < PAGE_ITEMS; i++) mine.push((await ctx.create(resource, check)).id);
  const seen: { id: string; created_at: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const exchange = await ctx.send(resource.list, { query: { limit: String(PAGE_LIMIT), ...(cursor ? { cursor } : {}) } });
    ctx.expect(resource.list, check, exchange, { statuses: [200] }, `page ${pages + 1} with limit ${PAGE_LIMIT}`);
    const page = exchange.json as { data: { id: string; created_at: string }[]; next_cursor: string | null };
    if (page.data.length > PAGE_LIMIT) fail(resource.list, check, `page ${pages + 1} has ${page.data.length} items, over limit ${PAGE_LIMIT}`);
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
      fail(resource.list, check, `items ${i - 1} and ${i} are not newest first by (created_at, id)`, [JSON.stringify(a), JSON.stringify(b)]);
    }
  }
}

/**
 * Every (from, to) pair of the state machine the document describes: legal moves (and staying put)
 * answer 200 with the new state, illegal ones 409.
 */
export async function transitions(ctx: KitContext, resource: Crud, machine: Transitions, check: string): Promise<void> {
  const states = [...machine.allowed.keys()];
  const bodies = await ctx.validBodies(resource.update, ctx.options.cases * 4);
  const bodyFor = (state: string) => {
    const body = bodies.find((candidate) => (candidate as Record<string, unknown>)[machine.property] === state);
    if (!body) throw new Error(`no valid ${resource.update.operationId} body with ${machine.property}=${state} was generated`);
    return body;
  };
  for (const from of states) {
    for (const to of states) {
      const { id, exchange } = await ctx.create(resource, check);
      const initial = (exchange.json as Record<string, unknown>)[machine.property] as string;
      for (const step of pathTo(machine, initial, from)) {
        const moved = await ctx.send(resource.update, { id, body: bodyFor(step) });
        ctx.expect(resource.update, check, moved, { statuses: [200] }, `moving ${initial} towards ${from} via ${step} (a legal transition)`);
      }
      const legal = from === to || machine.allowed.get(from)!.has(to);
      const answer = await ctx.send(resource.update, { id, body: bodyFor(to) });
      ctx.expect(resource.update, check, answer, { statuses: legal ? [200] : [409] }, `${from} → ${to} is ${legal ? 'allowed' : 'not allowed'}`);
      if (legal && (answer.json as Record<string, unknown>)[machine.property] !== to) {
        fail(resource.update, check, `after ${from} → ${to} the ${machine.property} is ${String((answer.json as Record<string, unknown>)[machine.property])}`);
      }
    }
  }
}

/** Shortest sequence of legal moves from one state to another (breadth first). */
function pathTo(machine: Transitions, from: string, to: string): string[] {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const state = queue.shift()!;
    if (state === to) break;
    for (const next of machine.allowed.get(state) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, state);
        queue.push(next);
      }
    }
  }
  const path: string[] = [];
  for (let state: string | null | undefined = to; state && state !== from; state = previous.get(state)) path.unshift(state);
  return path;
}

function idsOf(json: unknown): string[] {
  return ((json as { data?: { id?: string }[] })?.data ?? []).map((item) => String(item.id));
}
