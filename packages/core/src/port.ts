// The repository port: every read and write the use cases make, and nothing else. The SQLite and
// PostgreSQL stores (server/store/) and the in-memory store (./memory/) are its adapters: they
// read and write rows and decide nothing; which change is allowed, what it causes and who hears
// of it is the use cases' business (./use-cases/).
import type { components, operations } from '../../../generated/schema.d.ts';
import type { WebhookEvent } from '../../api/src/events.ts';
import type { CursorPosition } from './domain/cursor.ts';
import type { PolicyRecord } from './domain/policies.ts';
import type { NewWebhook, WebhookReplacement } from './domain/webhooks.ts';

type Schemas = components['schemas'];
type Policy = Schemas['Policy'];
type Finding = Schemas['Finding'];
type Webhook = Schemas['Webhook'];

/** The list filters, as the document declares them (limit and cursor are the page's business). */
export type PolicyFilters = Omit<NonNullable<operations['listPolicies']['parameters']['query']>, 'limit' | 'cursor'>;
export type FindingFilters = Omit<NonNullable<operations['listFindings']['parameters']['query']>, 'limit' | 'cursor'>;
export type WebhookFilters = Omit<NonNullable<operations['listWebhooks']['parameters']['query']>, 'limit' | 'cursor'>;

/**
 * A list page: the rows matching every filter after `after` in (created_at, id) descending order,
 * one more than `limit` so the caller knows whether another page exists.
 */
export type Page<F, T> = (filters: F, after: CursorPosition | undefined, limit: number) => Promise<T[]>;

export interface PolicyRows {
  list: Page<PolicyFilters, Policy>;
  /** The policy with its compliance status derived from the findings that reference it. */
  get(id: string): Promise<Policy | undefined>;
  insert(policy: PolicyRecord): Promise<Policy>;
  /** Writes every field but `created_at`; undefined when there is no such policy. */
  replace(policy: PolicyRecord): Promise<Policy | undefined>;
  /** False when there is no such policy. */
  delete(id: string): Promise<boolean>;
}

export interface FindingRows {
  list: Page<FindingFilters, Finding>;
  get(id: string): Promise<Finding | undefined>;
  /** Inserts the finding, or writes every field of the one with its id. */
  upsert(finding: Finding): Promise<void>;
  delete(id: string): Promise<boolean>;
}

export interface WebhookRows {
  list: Page<WebhookFilters, Webhook>;
  get(id: string): Promise<Webhook | undefined>;
  insert(webhook: NewWebhook): Promise<Webhook>;
  /** Every field, and the secret change with its rotation; undefined when there is no such webhook. */
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
export interface IdempotencyRows {
  find(owner: string, key: string, now: Date): Promise<StoredResponse | undefined>;
  /** Stores a first response; expired records go at the same time, so storage stays bounded. */
  save(owner: string, key: string, response: StoredResponse, now: Date): Promise<void>;
}

export interface EventRows {
  /**
   * Stores an event with one pending delivery per webhook in `recipients` (the use cases chose
   * them), validated against its schema and serialised once. Resolves to the deliveries queued.
   */
  enqueue(body: WebhookEvent, recipients: readonly string[], now: Date): Promise<number>;
}

export interface Repository {
  readonly policies: PolicyRows;
  readonly findings: FindingRows;
  readonly webhooks: WebhookRows;
  readonly idempotency: IdempotencyRows;
  readonly outbox: EventRows;
  /**
   * Runs `fn` atomically and in isolation from every other transaction (serializable). `fn` must
   * touch the data only through `tx`, and may be run again after a serialization conflict, so it
   * must not have other side effects. Inside a transaction, a nested call is a savepoint.
   */
  transaction<T>(fn: (tx: Repository) => Promise<T>): Promise<T>;
}
