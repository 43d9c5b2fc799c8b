// What /readyz knows about the database beyond "it answers": a write failure that will not pass by
// itself (the database or its disk is full) keeps the instance not ready until a write succeeds
// again, a request's or the probe's, so a load balancer sends traffic elsewhere meanwhile.
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { classifyDatabaseError, type DatabaseFault } from '../store/faults.ts';
import type { Store } from '../store/store.ts';

/** /readyz gives up on the database after this, so it answers within 2 s whatever the database does. */
export const READINESS_TIMEOUT_MS = 1500;

export interface Readiness {
  ready: boolean;
  /** Why not, in words (`database or disk is full`, `database does not answer`, ...). */
  reason?: string;
}

export class DatabaseHealth {
  readonly #store: Store;
  readonly #logger: Logger;
  #full: DatabaseFault | undefined;

  constructor(store: Store, logger: Logger) {
    this.#store = store;
    this.#logger = logger;
  }

  /** A request met a database fault: one that will not pass by itself takes the instance out. */
  noteFault(fault: DatabaseFault): void {
    if (fault.kind !== 'full' || this.#full) return;
    this.#full = fault;
    this.#logger.warn({ store: this.#store.engine, cause: fault.cause }, `not ready: ${fault.cause}`);
  }

  noteWriteSucceeded(): void {
    if (!this.#full) return;
    this.#full = undefined;
    this.#logger.info({ store: this.#store.engine }, 'ready again: a write succeeded');
  }

  /**
   * Marks writes that succeeded (2xx answers to POST, PUT, DELETE, not replays) as the end of a full
   * disk. Only while the disk is full: otherwise a write's answer tells nothing new, and the request
   * path pays for no listener.
   */
  watchWrites(): RequestHandler {
    return (req, res, next) => {
      if (this.#full && req.method !== 'GET' && req.method !== 'HEAD') {
        res.once('finish', () => {
          if (res.statusCode >= 200 && res.statusCode < 300 && !res.hasHeader('Idempotent-Replayed')) this.noteWriteSucceeded();
        });
      }
      next();
    };
  }

  /** Whether the database answers (and, after a full disk, takes a write), within READINESS_TIMEOUT_MS. */
  async check(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Readiness>((resolve) => {
      timer = setTimeout(
        () => resolve({ ready: false, reason: `database does not answer within ${READINESS_TIMEOUT_MS} ms` }),
        READINESS_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([this.#probe(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #probe(): Promise<Readiness> {
    if (!(await this.#store.ping())) return { ready: false, reason: 'database does not answer' };
    if (!this.#full) return { ready: true };
    try {
      await this.#store.probeWrite();
      this.noteWriteSucceeded();
      return { ready: true };
    } catch (error) {
      return { ready: false, reason: (classifyDatabaseError(error) ?? this.#full).cause };
    }
  }
}
