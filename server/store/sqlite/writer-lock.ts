// One server per database file. The hold is an open SQLite write transaction (a RESERVED lock,
// an fcntl lock underneath) on a companion file: the operating system drops it when the process
// dies however it dies, so a crashed server never blocks a restart, and a second server on the
// same file is refused instead of sending what the first has in flight.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export class DatabaseHeldError extends Error {
  override name = 'DatabaseHeldError';
  readonly holderPid: number | null;
  constructor(path: string, holderPid: number | null) {
    super(
      `database ${path} is in use by another server (PID ${holderPid ?? 'unknown'}); stop that server or start this one with another --db`,
    );
    this.holderPid = holderPid;
  }
}

export interface WriterLock {
  release(): void;
}

/** Holds `dbPath` for this process or throws DatabaseHeldError naming the holder. */
export function holdDatabase(dbPath: string): WriterLock {
  mkdirSync(dirname(dbPath), { recursive: true });
  const pidPath = `${dbPath}.pid`;
  const lock = new DatabaseSync(`${dbPath}.lock`);
  try {
    // No busy time-out: a held file is refused at once.
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    lock.close();
    if ((error as { errcode?: number }).errcode !== SQLITE_BUSY) throw error;
    throw new DatabaseHeldError(dbPath, readPid(pidPath));
  }
  writeFileSync(pidPath, `${process.pid}\n`);
  return {
    release() {
      rmSync(pidPath, { force: true });
      lock.exec('ROLLBACK');
      lock.close();
    },
  };
}

const SQLITE_BUSY = 5;

function readPid(pidPath: string): number | null {
  try {
    const pid = Number(readFileSync(pidPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
