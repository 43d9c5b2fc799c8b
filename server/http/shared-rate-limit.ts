// express-rate-limit's Store over the store's shared counters (several instances on one database
// share each key's quota). Keys keep the `secmon:` prefix their rows have always had.
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { SharedCounters } from '../store/store.ts';

export class SharedRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix = 'secmon:';
  #windowMs = 60_000;
  readonly #counters: SharedCounters;

  constructor(counters: SharedCounters) {
    this.#counters = counters;
  }

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const count = await this.#counters.get(this.prefix + key);
    return count && { totalHits: count.hits, resetTime: count.resetAt };
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const count = await this.#counters.increment(this.prefix + key, this.#windowMs);
    return { totalHits: count.hits, resetTime: count.resetAt };
  }

  decrement(key: string): Promise<void> {
    return this.#counters.decrement(this.prefix + key);
  }

  resetKey(key: string): Promise<void> {
    return this.#counters.reset(this.prefix + key);
  }
}

/** express-rate-limit's Store for the store's shared counters, or undefined (count in memory). */
export const sharedRateLimitStore = (counters: SharedCounters | undefined): Store | undefined =>
  counters && new SharedRateLimitStore(counters);
