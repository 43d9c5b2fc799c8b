// The executable model's state: the resources this kit created (nothing another client made is
// asserted), what each should look like, what the target chose for it (id, timestamps, ETag),
// and the events the changes caused. Plain data: the model's rules live in the modules beside.
import type { RuleId } from '../rules/catalogue.ts';
import type { Json, ResourceFacts } from './facts.ts';

/** A way the target broke the document, and the catalogue rule that says so. */
export interface Difference {
  rule: RuleId;
  message: string;
  details?: string[];
}

export interface Known {
  resource: string;
  id: string;
  /** The fields the document fixes, as they must read now. */
  expected: Json;
  /** The last representation the target answered, as sent. */
  seen?: Json;
  /** The ETag `seen` came with. */
  seenTag?: string;
  /** The ETag of `seen`, if any; undefined once the model knows the representation changed unseen. */
  etag?: string;
  /** ETags this resource had before (a stale validator for If-Match). */
  oldTags: string[];
  /** Webhooks: every secret it was given in this sequence (deliveries may be signed with any). */
  secrets: string[];
  /** Webhooks: whether it had no secret at some point (then an unsigned delivery may be legal). */
  unsignedSometime: boolean;
}

/** An event the model says the target causes, and which of the kit's webhooks must get it. */
export interface PredictedEvent {
  type: string;
  /** The `data` fields that identify it as the kit's (finding_id, policy_id, device_id …) and must match. */
  data: Json;
  /** Kit webhooks enabled and subscribed when it happened (targeted: the one webhook). */
  recipients: Set<string>;
  /** Raised through test support for this one webhook. */
  targeted?: string;
  /**
   * Raised by a trigger command, which may carry neither the kit's data nor its target: any
   * delivery of the type on the target counts (`data` is empty), one per raise.
   */
  ownData?: true;
}

export interface ModelState {
  facts: Map<string, ResourceFacts>;
  known: Map<string, Known>;
  /** Deleted ids of the kit's resources (a later answer about them is judged too). */
  deleted: Set<string>;
  events: PredictedEvent[];
  /** Idempotency keys used: the canonical body and the first answer. */
  replays: Map<string, { resource: string; body: string; status: number; json: unknown }>;
}

export function emptyState(facts: Map<string, ResourceFacts>): ModelState {
  return { facts, known: new Map(), deleted: new Set(), events: [], replays: new Map() };
}

export function knownOf(state: ModelState, resource: string): Known[] {
  return [...state.known.values()].filter((k) => k.resource === resource);
}

/** JSON with keys sorted at every depth: equal representations give equal strings, whatever the key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
}

/** Fields of `expected` that `actual` has otherwise. */
export function fieldDifferences(expected: Json, actual: Json): string[] {
  return Object.entries(expected)
    .filter(([field, value]) => canonical(actual[field]) !== canonical(value))
    .map(([field, value]) => `${field}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual[field])}`);
}
