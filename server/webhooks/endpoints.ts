// Per-endpoint isolation for the dispatcher: how many of the shared delivery slots each webhook
// may use right now. Every webhook gets its first slot before any gets a second; an endpoint's
// own limit halves on each failure and grows by one with each answer; three failures in a row
// open its circuit (one attempt at a time, and new deliveries wait for a probe); endpoints that
// are failing share at most three quarters of the slots, and extra parallelism never takes the
// last quarter, so an endpoint that answers always finds a free slot.
import type { AttemptOutcome } from './outcomes.ts';

/** Failures in a row that open an endpoint's circuit. */
export const BREAK_AFTER = 3;
/** The probe pause doubles with each failure past BREAK_AFTER, up to this many times. */
const MAX_PROBE_DOUBLINGS = 6;

export interface EndpointPolicy {
  /** Attempts in flight at once over all webhooks. */
  concurrency: number;
  /** Attempts in flight at once to one webhook while it answers. */
  maxPerEndpoint: number;
  /** Pause before a new delivery probes an open circuit (doubled per further failure). */
  probeAfterMs: number;
}

/** What an attempt says about its endpoint: it answered, it failed (no answer, 5xx, 429), or neither. */
export type EndpointHealth = 'answered' | 'failed' | 'unknown';

/** A due delivery the claim may lease: only what the choice needs. */
export interface DueCandidate {
  webhookId: string;
  /** Attempts already made: more than 0 means a retry on its schedule. */
  attempts: number;
}

/** One claim's view of the slots: what to leave out of the query, and which candidates to take. */
export interface SlotPlan {
  /** Webhooks that can start no attempt now. */
  blocked: ReadonlySet<string>;
  /** Webhooks whose circuit is open: only retries due on their schedule may go (one at a time). */
  retriesOnly: ReadonlySet<string>;
  /** Picks candidates (given in due order), every webhook's first before anyone's second; counts them. */
  choose<T extends DueCandidate>(candidates: readonly T[]): T[];
}

interface EndpointState {
  limit: number;
  inFlight: number;
  /** Failures in a row; BREAK_AFTER or more means the circuit is open. */
  failures: number;
  /** While open: when a new (never attempted) delivery may go as a probe. */
  probeAt: number;
}

export function healthOf(outcome: AttemptOutcome): EndpointHealth {
  // A refused URL never reached the endpoint, so it says nothing about its health.
  if ('cause' in outcome && outcome.status === null) return outcome.cause === 'refused' ? 'unknown' : 'failed';
  return outcome.status !== null && (outcome.status >= 500 || outcome.status === 429) ? 'failed' : 'answered';
}

export class EndpointScheduler {
  readonly #policy: EndpointPolicy;
  readonly #states = new Map<string, EndpointState>();
  /** Slots extra parallelism never takes, so an endpoint with nothing in flight finds one free. */
  readonly #reserve: number;
  /** Slots failing endpoints may hold together. */
  readonly #failingCap: number;
  #inFlight = 0;
  #failingInFlight = 0;

  constructor(policy: EndpointPolicy) {
    this.#policy = policy;
    this.#reserve = Math.max(1, Math.floor(policy.concurrency / 4));
    this.#failingCap = Math.max(1, policy.concurrency - this.#reserve);
  }

  /** The endpoint's current limit and circuit (tests). */
  describe(webhookId: string): { limit: number; inFlight: number; open: boolean } {
    const state = this.#state(webhookId);
    return { limit: state.limit, inFlight: state.inFlight, open: state.failures >= BREAK_AFTER };
  }

  started(webhookId: string): void {
    const state = this.#states.get(webhookId) ?? this.#fresh();
    this.#states.set(webhookId, state);
    state.inFlight++;
    this.#inFlight++;
    if (state.failures > 0) this.#failingInFlight++;
  }

  /** Counts an attempt's end; returns 'opened' or 'closed' when it changed the endpoint's circuit. */
  finished(webhookId: string, health: EndpointHealth, now: number): 'opened' | 'closed' | null {
    const state = this.#states.get(webhookId);
    if (!state) return null;
    const wasOpen = state.failures >= BREAK_AFTER;
    if (state.failures > 0) this.#failingInFlight--;
    state.inFlight--;
    this.#inFlight--;
    // Attempts still in flight were counted as failing or not when they started; they keep that.
    const wasFailing = state.failures > 0;
    if (health === 'answered') {
      state.limit = state.failures >= BREAK_AFTER ? 1 : Math.min(this.#policy.maxPerEndpoint, state.limit + 1);
      state.failures = 0;
    } else if (health === 'failed') {
      state.failures++;
      state.limit = Math.max(1, Math.floor(state.limit / 2));
      if (state.failures >= BREAK_AFTER) {
        state.probeAt = now + this.#policy.probeAfterMs * 2 ** Math.min(state.failures - BREAK_AFTER, MAX_PROBE_DOUBLINGS);
      }
    }
    const isFailing = state.failures > 0;
    if (wasFailing !== isFailing) this.#failingInFlight += (isFailing ? 1 : -1) * state.inFlight;
    if (state.inFlight === 0 && state.failures === 0 && state.limit === this.#policy.maxPerEndpoint) this.#states.delete(webhookId);
    const isOpen = state.failures >= BREAK_AFTER;
    return wasOpen === isOpen ? null : isOpen ? 'opened' : 'closed';
  }

  /** The earliest time an open circuit lets a new delivery probe it, or null. */
  nextProbeAt(): number | null {
    let next: number | null = null;
    for (const state of this.#states.values()) {
      if (state.failures >= BREAK_AFTER && state.inFlight === 0) next = Math.min(next ?? Infinity, state.probeAt);
    }
    return next;
  }

  /**
   * A plan for one claim at `now`; the attempts it chooses are counted once `started` is called.
   * `elsewhere` counts, per webhook, attempts other processes have in flight (several instances
   * on one database): they take from the endpoint's limit, not from this process's slots. It is
   * read as candidates are chosen, so a claim may add counts after the plan was made.
   */
  plan(now: number, elsewhere: Pick<ReadonlyMap<string, number>, 'get' | 'keys'> = new Map()): SlotPlan {
    const planned = new Map<string, number>();
    let plannedTotal = 0;
    let plannedFailing = 0;
    const inFlightOf = (id: string) => (this.#states.get(id)?.inFlight ?? 0) + (planned.get(id) ?? 0) + (elsewhere.get(id) ?? 0);
    const mayStart = (id: string, retry: boolean): boolean => {
      const free = this.#policy.concurrency - this.#inFlight - plannedTotal;
      if (free <= 0) return false;
      const state = this.#state(id);
      const inFlight = inFlightOf(id);
      if (state.failures >= BREAK_AFTER) {
        if (inFlight > 0 || (!retry && now < state.probeAt)) return false;
      } else if (inFlight >= state.limit) return false;
      if (state.failures > 0 && this.#failingInFlight + plannedFailing >= this.#failingCap) return false;
      return inFlight === 0 || free > this.#reserve;
    };

    const blocked = new Set<string>();
    const retriesOnly = new Set<string>();
    for (const id of new Set([...this.#states.keys(), ...elsewhere.keys()])) {
      const state = this.#state(id);
      if (!mayStart(id, true)) blocked.add(id);
      else if (state.failures >= BREAK_AFTER && now < state.probeAt) retriesOnly.add(id);
    }

    const take = (candidate: DueCandidate): boolean => {
      if (!mayStart(candidate.webhookId, candidate.attempts > 0)) return false;
      planned.set(candidate.webhookId, (planned.get(candidate.webhookId) ?? 0) + 1);
      plannedTotal++;
      if (this.#state(candidate.webhookId).failures > 0) plannedFailing++;
      return true;
    };
    return {
      blocked,
      retriesOnly,
      choose(candidates) {
        const chosen = new Set<number>();
        const seen = new Set<string>();
        candidates.forEach((candidate, index) => {
          if (seen.has(candidate.webhookId)) return;
          seen.add(candidate.webhookId);
          if (take(candidate)) chosen.add(index);
        });
        candidates.forEach((candidate, index) => {
          if (!chosen.has(index) && take(candidate)) chosen.add(index);
        });
        return [...chosen].sort((a, b) => a - b).map((index) => candidates[index]!);
      },
    };
  }

  #state(webhookId: string): EndpointState {
    return this.#states.get(webhookId) ?? this.#fresh();
  }

  #fresh(): EndpointState {
    return { limit: this.#policy.maxPerEndpoint, inFlight: 0, failures: 0, probeAt: 0 };
  }
}
