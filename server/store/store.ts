// The store: every read and write the server makes, behind one interface that the embedded
// SQLite store (server/store/sqlite/) and the PostgreSQL store (server/store/postgres/) both
// implement. Handlers, the dispatcher, the simulator and the mock's seed only see this.
import type { components, operations } from '../../generated/schema.d.ts';
import type { EventType, WebhookEvent } from '../../lib/events.ts';
import type { CursorPosition } from '../domain/cursor.ts';
import type { DomainError } from '../domain/errors.ts';
import type { PolicyRecord } from '../domain/policies.ts';
import type { NewWebhook, WebhookReplacement } from '../domain/webhooks.ts';

type Schemas = components['schemas'];
type Policy = Schemas['Policy'];
type Finding = Schemas['Finding'];
type Webhook = Schemas['Webhook'];

/** The list filters, as the document declares them (limit and cursor are the page's business). */
export type PolicyFilters = Omit<NonNullable<operations['listPolicies']['parameters']['query']>, 'limit' | 'cursor'>;
export type FindingFilters = Omit<NonNullable<operations['listFindings']['parameters']['query']>, 'limit' | 'cursor'>;
export type WebhookFilters = Omit<NonNullable<operations['listWebhooks']['parameters']['query']>, 'limit' | 'cursor'>;

/**
 * A list page: the rows after `after` in (created_at, id) descending order, one more than `limit`
 * so the caller knows whether another page exists. Reads O(limit) index entries.
 */
type Page<F, T> = (filters: F, after: CursorPosition | undefined, limit: number) => Promise<T[]>;

export interface PolicyStore {
  list: Page<PolicyFilters, Policy>;
  get(id: string): Promise<Policy | undefined>;
  /** Stores a new policy (server/domain/policies.ts makes it). */
  insert(policy: PolicyRecord): Promise<Policy>;
  /** Writes every field but `created_at`; undefined when there is no such policy. */
  replace(policy: PolicyRecord): Promise<Policy | undefined>;
  /**
   * Deletes a policy; the findings that reference it keep their record, unlinked. Whether it may go
   * is the caller's to decide first, in the same transaction (server/domain/policies.ts). False when
   * there is no such policy.
   */
  delete(id: string, now: string): Promise<boolean>;
}

export interface FindingStore {
  list: Page<FindingFilters, Finding>;
  get(id: string): Promise<Finding | undefined>;
  /**
   * Applies a create (`before` null), replacement, or delete (`after` null) and, atomically with
   * it, queues the webhook events it causes; resolves to the domain's refusal (nothing changed)
   * when `after` links to a policy that does not exist.
   */
  write(before: Finding | null, after: Finding | null, now: string): Promise<DomainError | undefined>;
}

export interface WebhookStore {
  list: Page<WebhookFilters, Webhook>;
  get(id: string): Promise<Webhook | undefined>;
  /** Stores a new webhook (server/domain/webhooks.ts makes it). */
  insert(webhook: NewWebhook): Promise<Webhook>;
  /** Applies a replacement (server/domain/webhooks.ts): every field, and the secret change with its rotation; undefined when there is no such webhook. */
  replace(webhook: WebhookReplacement): Promise<Webhook | undefined>;
  delete(id: string): Promise<boolean>;
}

/** The first response of a create made with an Idempotency-Key. */
export interface StoredResponse {
  fingerprint: string;
  status: number;
  location: string;
  etag: string;
  body: string;
}

/** How long a create's first response is kept for replays (as Stripe keeps them). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Idempotency records per API key, kept IDEMPOTENCY_TTL_MS. */
export interface IdempotencyStore {
  find(owner: string, key: string, now: Date): Promise<StoredResponse | undefined>;
  /** Stores a first response; expired records go at the same time, so storage stays bounded. */
  save(owner: string, key: string, response: StoredResponse, now: Date): Promise<void>;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'gone' | 'cancelled';

/** A claimed delivery with what the attempt needs, read at claim time (the current URL and secret). */
export interface ClaimedDelivery {
  id: string;
  eventType: EventType;
  body: string;
  webhookId: string;
  url: string;
  secret: string | null;
  /** The secret `secret` replaced, while it is still valid (signingSecrets in server/domain/webhooks.ts); else null. */
  previousSecret: string | null;
  /** Attempts already recorded before this one. */
  attempts: number;
  /** Epoch ms of the first recorded attempt, or null before it. */
  firstAttemptAt: number | null;
  /** Epoch ms when the delivery was queued. */
  createdAt: number;
  /**
   * Epoch ms when this claim's lease runs out. Where several processes claim (PostgreSQL), the
   * outcome is recorded only while the delivery still carries this lease.
   */
  leasedUntil: number;
}

/**
 * A due delivery as a claim reads it: what an attempt needs, and whether its webhook still wants
 * it (the URL and secrets mean something only while it is 'enabled'; a claim cancels the others).
 */
export interface DueDelivery extends Omit<ClaimedDelivery, 'leasedUntil'> {
  webhook: 'enabled' | 'disabled' | 'deleted';
}

export interface DueQuery {
  now: number;
  /** Webhooks left out of the window. */
  exclude: ReadonlySet<string>;
  /** Webhooks of which only retries (attempts > 0) are read. */
  retriesOnly: ReadonlySet<string>;
  limit: number;
}

/**
 * One claim's transaction (server/webhooks/claim.ts plans it). The store brings its own
 * concurrency: SQLite's single writer; on PostgreSQL a claim locks only the webhooks it is about
 * to lease for (one transaction-level lock per webhook), so claims for different webhooks do not
 * wait for each other, and a webhook's leases are counted exactly while its lock is held.
 */
export interface ClaimTransaction {
  /**
   * Pending deliveries due at `now`, retries (attempts > 0) before never-attempted ones, each oldest
   * due first, up to `limit`; another claim may lease them until lockWebhooks.
   */
  due(query: DueQuery): Promise<DueDelivery[]>;
  /**
   * Locks leasing for these webhooks to this claim until it ends and returns, per webhook locked,
   * the deliveries leased at `now` by any process (0 where this process is the only one claiming:
   * it counts its own). A webhook left out is held by another claim: without `wait`, or where
   * waiting for it could deadlock (a webhook locked later than others it holds), it is not waited for.
   */
  lockWebhooks(ids: readonly string[], now: number, options: { wait: boolean }): Promise<ReadonlyMap<string, number>>;
  /** Finishes pending deliveries as cancelled, each with its reason as its last error. */
  cancel(cancelled: readonly { id: string; reason: string }[], now: number): Promise<void>;
  /**
   * Leases deliveries still due at `now` until `until`: their due time moves to it, so a lease
   * that runs out makes them due again. Resolves to the ids leased (another claim may have taken
   * one since it was read). Call only for webhooks this claim has locked.
   */
  lease(ids: readonly string[], until: number, now: number): Promise<string[]>;
}

type LastDelivery = NonNullable<Webhook['last_delivery']>;
export type DisabledReason = NonNullable<Webhook['disabled_reason']>;

/** What an attempt leaves on its delivery row (server/webhooks/outcomes.ts decides it). */
export interface DeliveryUpdate {
  id: string;
  /** The claim's lease: where several processes claim, the update applies only while the delivery still carries it. */
  leasedUntil: number;
  state: DeliveryState;
  firstAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  dueAt: number;
  finishedAt: number | null;
}

/** The transaction recording a batch of attempts' outcomes (server/webhooks/outcomes.ts). */
export interface RecordTransaction {
  /**
   * Counts an attempt on each pending delivery, in one statement where the engine allows; per
   * update, false (nothing changed) when its lease was lost to another claim.
   */
  update(updates: readonly DeliveryUpdate[]): Promise<boolean[]>;
  setLastDelivery(webhookId: string, lastDelivery: LastDelivery): Promise<void>;
  /** True when a delivery of the webhook finished delivered at or after `since` (epoch ms). */
  deliveredSince(webhookId: string, since: number): Promise<boolean>;
  /** Disables an enabled webhook with the service's reason; false when it was not enabled (or is gone). */
  disable(webhookId: string, reason: DisabledReason, at: string): Promise<boolean>;
}

export interface DeliveryRow {
  id: string;
  eventId: string;
  webhookId: string;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** Epoch ms: when it is due (a lease's expiry while in flight); the first attempt, or null. */
  dueAt: number;
  firstAttemptAt: number | null;
}

/**
 * The webhook outbox: events and their deliveries are rows written atomically with the change
 * that caused them; the dispatcher leases due deliveries from here and records their outcomes.
 */
export interface OutboxStore {
  /**
   * Queues an event for every enabled webhook subscribed to its type, validated against its
   * schema and serialised once (every attempt sends exactly these bytes). Inside a transaction,
   * nothing is queued if it rolls back. Resolves to the number of deliveries queued. With
   * `onlyWebhook` (the simulator's test events), only that webhook gets it, if it is one of them.
   */
  enqueue(body: WebhookEvent, now?: Date, onlyWebhook?: string): Promise<number>;
  /** Calls `listener` soon after any committed enqueue, by any process on this database. Returns the unsubscribe function. */
  onEnqueue(listener: () => void): () => void;
  /** Runs a claim (server/webhooks/claim.ts) in a transaction of its own; see ClaimTransaction. */
  claim<T>(fn: (tx: ClaimTransaction) => Promise<T>): Promise<T>;
  /** Records attempts' outcomes (server/webhooks/outcomes.ts) atomically, in one transaction of their own. */
  record<T>(fn: (tx: RecordTransaction) => Promise<T>): Promise<T>;
  /** Gives a claimed delivery back, due at `now`, without counting an attempt (shutdown aborted it). */
  releaseLease(delivery: ClaimedDelivery, now: number): Promise<void>;
  /**
   * At a dispatcher's start: makes due at once the deliveries a dead process had leased, where the
   * store can know it (one SQLite server holds its file); elsewhere leases simply run out.
   */
  resumeOrphaned(now: number): Promise<number>;
  /** Epoch ms of the earliest due time of a pending delivery after `after` (all of them by default), or null. */
  nextDueAt(after?: number): Promise<number | null>;
  /** Deletes finished deliveries older than `before` (epoch ms) and events left without deliveries. */
  pruneFinished(before: number): Promise<number>;
  /** Every queued event body in the order it was queued (operators, tests). */
  listEvents(): Promise<WebhookEvent[]>;
  /** Every delivery of a webhook, oldest first (operators, tests). */
  listDeliveries(webhookId: string): Promise<DeliveryRow[]>;
  /** Counts of deliveries by state (operators, tests, the benchmark). */
  countDeliveries(): Promise<Record<DeliveryState, number>>;
}

/** A key's count in its current window. */
export interface WindowCount {
  hits: number;
  resetAt: Date;
}

/** Hits per key in fixed windows, counted in the database (server/http/shared-rate-limit.ts adapts them to express-rate-limit). */
export interface SharedCounters {
  /** Counts a hit on `key`, in a new window of `windowMs` when the last one ran out; timed by the database's clock. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  get(key: string): Promise<WindowCount | undefined>;
  decrement(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly policies: PolicyStore;
  readonly findings: FindingStore;
  readonly webhooks: WebhookStore;
  readonly idempotency: IdempotencyStore;
  readonly outbox: OutboxStore;
  /**
   * Runs `fn` atomically and in isolation from every other transaction, in this process or
   * another (serializable). `fn` must touch the database only through `tx`, and may be run again
   * when the database reports a serialization conflict, so it must not have other side effects.
   * Inside a transaction, a nested call is a savepoint.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Deletes every row of every table (the stateful mock's reset), inside the caller's transaction. */
  clear(): Promise<void>;
  /**
   * Request counters shared by every process on this database (the rate limits), or undefined
   * where one process serves the database (then each process counts in memory).
   */
  readonly rateLimits?: SharedCounters;
  /** True when the database answers a trivial query (readiness). */
  ping(): Promise<boolean>;
  /**
   * Commits a small write and removes it again; rejects with the database's error when writes
   * fail (readiness after the database or its disk was full).
   */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}
