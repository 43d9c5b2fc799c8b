// The one connection of the SQLite store, shared by every request: a FIFO gate keeps other calls
// off it while a transaction runs, and transactions that queue behind one another share one
// COMMIT (group commit). A commit's cost is the pages it writes to the WAL — the finding's row and
// a leaf of each of its nine list indexes — and consecutive creates dirty the same leaves, so
// eight creates in one commit write about as much as two alone (bench/profile.ts: the COMMIT was
// half a create's CPU). Each transaction is a savepoint inside the group: its failure undoes only
// its own changes, and its caller hears of its success only once the group is committed. A group
// lasts at most until the event loop turns, so it costs a request no waiting. A call outside a
// transaction (a read) never joins a group: the group commits before it runs, so nothing is ever
// read that might still be rolled back.
import type { DatabaseSync } from 'node:sqlite';
import { rollBack } from './database.ts';

/** The most transactions one COMMIT holds: bounds the latency a group adds to its first member. */
const GROUP_LIMIT = 32;

interface Member {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  value: unknown;
}

/** Runs a synchronous call and hands its result (or error) over as a promise. */
export function settle<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

export class Gate {
  readonly #db: DatabaseSync;
  #held = false;
  readonly #waiting: (() => void)[] = [];
  /** The transactions of the open group that succeeded, waiting for its COMMIT. */
  #group: Member[] | undefined;
  /** The event loop has turned since the group began: it commits when its running member ends. */
  #due = false;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Undefined when the connection was free and is now held, else a promise of the turn. */
  #acquire(): Promise<void> | undefined {
    if (!this.#held) {
      this.#held = true;
      return undefined;
    }
    return new Promise<void>((wake) => this.#waiting.push(wake));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  /** A call outside any transaction: at once when the connection is free, else in turn; an open group commits first. */
  run<T>(call: () => T): Promise<T> {
    const turn = this.#acquire();
    if (!turn) return this.#runHeld(call);
    return turn.then(() => this.#runHeld(call));
  }

  #runHeld<T>(call: () => T): Promise<T> {
    try {
      this.#commit();
      return settle(call);
    } finally {
      this.#release();
    }
  }

  /**
   * `fn` atomically: a savepoint of the open group, or the first of a new one. The group stays
   * open until the event loop turns (the requests read in this turn join it), a call outside a
   * transaction comes, or it holds GROUP_LIMIT transactions.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.#acquire();
    const db = this.#db;
    try {
      if (!this.#group) {
        db.exec('BEGIN IMMEDIATE');
        const group: Member[] = [];
        this.#group = group;
        setImmediate(() => this.#turned(group));
      }
      db.exec('SAVEPOINT member');
    } catch (error) {
      rollBack(db, error, 'ROLLBACK');
      this.#fail(error);
      this.#release();
      throw error;
    }
    const group = this.#group;
    let value: T;
    try {
      value = await fn();
      db.exec('RELEASE member');
    } catch (error) {
      rollBack(db, error, 'ROLLBACK TO member; RELEASE member');
      // SQLite rolled back the whole group by itself (it does on a full disk): the group fails.
      if (!db.isTransaction) this.#fail(error);
      this.#finish();
      throw error;
    }
    const committed = new Promise<T>((resolve, reject) => group.push({ resolve: resolve as (value: unknown) => void, reject, value }));
    this.#finish();
    return committed;
  }

  #turned(group: Member[]): void {
    if (this.#group !== group) return;
    if (this.#held) this.#due = true;
    else this.#commit();
  }

  #finish(): void {
    if (this.#due || (this.#group && this.#group.length >= GROUP_LIMIT)) this.#commit();
    this.#release();
  }

  #commit(): void {
    const group = this.#group;
    this.#group = undefined;
    this.#due = false;
    if (!group) return;
    try {
      this.#db.exec('COMMIT');
    } catch (error) {
      rollBack(this.#db, error, 'ROLLBACK');
      for (const member of group) member.reject(error);
      return;
    }
    for (const member of group) member.resolve(member.value);
  }

  #fail(error: unknown): void {
    const group = this.#group ?? [];
    this.#group = undefined;
    this.#due = false;
    for (const member of group) member.reject(error);
  }
}
