// What every collection's use cases share: list pages bound to their filters by the cursor, reads,
// creates replayed or refused by Idempotency-Key, and replacements and deletes under If-Match, each
// judged inside the write's own transaction (serializable in every adapter, so of several writers
// sending one ETag exactly one wins).
import type { Digests } from '../digests.ts';
import type { CursorPosition } from '../domain/cursor.ts';
import type { DomainError, Outcome } from '../domain/errors.ts';
import { ifMatchSatisfied } from '../domain/etag.ts';
import { reusedKeyDetail } from '../domain/idempotency.ts';
import type { IdPrefix } from '../domain/ids.ts';
import type { Page, Repository, StoredResponse } from '../port.ts';

type Filters = Record<string, string | number | boolean | undefined>;

/** How one collection is read and changed; `create`, `replace` and `remove` run inside the write's transaction. */
export interface CollectionSpec<T extends CursorPosition, F extends Filters, C, U> {
  /** The collection's path segment (`policies`), which also binds its cursors. */
  name: string;
  noun: string;
  prefix: IdPrefix;
  list(repo: Repository): Page<F, T>;
  get(repo: Repository, id: string): Promise<T | undefined>;
  create(tx: Repository, id: string, input: C, at: string): Promise<T | DomainError>;
  replace(tx: Repository, current: T, input: U, at: string): Promise<T | DomainError>;
  remove(tx: Repository, current: T, at: string): Promise<DomainError | undefined>;
}

/** A create sent with an Idempotency-Key: whose key it is, and the request it was sent with. */
export interface IdempotentRequest {
  owner: string;
  key: string;
  method: string;
  path: string;
  body: unknown;
}

export type Created<T> = { resource: T; location: string } | { replay: StoredResponse };

export interface ListPage<T> {
  data: T[];
  next_cursor: string | null;
}

export interface Collection<T, F, C, U> {
  list(repo: Repository, filters: F, cursor: string | undefined, limit: number): Promise<Outcome<ListPage<T>>>;
  read(repo: Repository, id: string): Promise<Outcome<T>>;
  create(repo: Repository, input: C, now: Date, idempotency?: IdempotentRequest): Promise<Outcome<Created<T>>>;
  replace(repo: Repository, id: string, input: U, ifMatch: string | undefined, now: Date): Promise<Outcome<T>>;
  remove(repo: Repository, id: string, ifMatch: string | undefined, now: Date): Promise<Outcome<undefined>>;
}

const refused = (error: DomainError) => ({ error });
const isError = (value: object): value is DomainError => 'kind' in value;

class Refusal extends Error {
  readonly refusal: DomainError;
  constructor(refusal: DomainError) {
    super(refusal.kind);
    this.refusal = refusal;
  }
}

/** Runs `fn` in a transaction that a refusal rolls back; the refusal becomes the outcome. */
async function atomically<T>(repo: Repository, fn: (tx: Repository) => Promise<T>): Promise<Outcome<T>> {
  try {
    return { value: await repo.transaction(fn) };
  } catch (error) {
    if (error instanceof Refusal) return refused(error.refusal);
    throw error;
  }
}

const orRefuse = <T extends object>(value: T | DomainError): T => {
  if (isError(value)) throw new Refusal(value);
  return value;
};

export function collection<T extends CursorPosition & { id: string }, F extends Filters, C, U>(
  spec: CollectionSpec<T, F, C, U>,
  digests: Digests,
): Collection<T, F, C, U> {
  const notFound = (id: string): DomainError => ({ kind: 'not-found', detail: `No ${spec.noun} has the id ${id}.` });
  const current = async (tx: Repository, id: string, ifMatch: string | undefined): Promise<T> => {
    const item = await spec.get(tx, id);
    if (item === undefined) throw new Refusal(notFound(id));
    if (!ifMatchSatisfied(ifMatch, digests.etagOf(item))) {
      throw new Refusal({ kind: 'precondition-failed', detail: 'The resource has changed since the ETag you sent; fetch it again.' });
    }
    return item;
  };
  const make = async (tx: Repository, input: C, now: Date) => {
    const resource = orRefuse(await spec.create(tx, digests.newId(spec.prefix, now.getTime()), input, now.toISOString()));
    return { resource, location: `/v1/${spec.name}/${resource.id}` };
  };

  return {
    list: async (repo, filters, cursor, limit) => {
      const after = cursor === undefined ? undefined : digests.decodeCursor(spec.name, filters, cursor);
      if (cursor !== undefined && after === undefined) {
        return refused({ kind: 'validation', pointer: '/query/cursor', message: 'is not a cursor issued for this list and filters' });
      }
      const rows = await spec.list(repo)(filters, after, limit);
      const data = rows.slice(0, limit);
      const last = data.at(-1);
      return { value: { data, next_cursor: rows.length > limit && last ? digests.encodeCursor(spec.name, filters, last) : null } };
    },
    read: async (repo, id) => {
      const item = await spec.get(repo, id);
      return item === undefined ? refused(notFound(id)) : { value: item };
    },
    create: (repo, input, now, idempotency) => {
      if (idempotency === undefined) return atomically(repo, (tx) => make(tx, input, now));
      const { owner, key, method, path, body } = idempotency;
      const fingerprint = digests.requestFingerprint(method, path, body);
      return atomically(repo, async (tx): Promise<Created<T>> => {
        const stored = await tx.idempotency.find(owner, key, now);
        if (stored && stored.fingerprint !== fingerprint)
          throw new Refusal({ kind: 'idempotency-key-reused', detail: reusedKeyDetail(key) });
        if (stored) return { replay: stored };
        const created = await make(tx, input, now);
        const response = { fingerprint, status: 201, location: created.location, etag: digests.etagOf(created.resource) };
        await tx.idempotency.save(owner, key, { ...response, body: JSON.stringify(created.resource) }, now);
        return created;
      });
    },
    replace: (repo, id, input, ifMatch, now) =>
      atomically(repo, async (tx) => orRefuse(await spec.replace(tx, await current(tx, id, ifMatch), input, now.toISOString()))),
    remove: (repo, id, ifMatch, now) =>
      atomically(repo, async (tx) => {
        const refusal = await spec.remove(tx, await current(tx, id, ifMatch), now.toISOString());
        if (refusal) throw new Refusal(refusal);
        return undefined;
      }),
  };
}
