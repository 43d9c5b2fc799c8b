// What start-up failures mean in the terms of the configuration: the operators' guide promises one line
// naming the setting and what is wrong with its value (and exit code 2), not a stack trace.
import type { Config } from './config.ts';
import { DatabaseUnavailableError, describeDatabase } from './store/open.ts';

interface SystemishError {
  code?: string;
  syscall?: string;
  errcode?: number;
}

const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/** A one-line message for a failure caused by a setting's value, or undefined for anything else. */
export function startupErrorMessage(error: unknown, config: Pick<Config, 'port' | 'host' | 'database'>): string | undefined {
  const { code, syscall, errcode } = (error ?? {}) as SystemishError;
  const port = `PORT (--port) ${config.port}`;
  const host = `SECMON_HOST (--host) '${config.host}'`;
  const db = `SECMON_DB (--db) '${describeDatabase(config.database)}'`;
  if (error instanceof DatabaseUnavailableError) return `${db} ${error.reason}`;
  if (syscall === 'listen') {
    if (code === 'EADDRINUSE')
      return `${port} is already in use on ${config.host}: stop the other process or choose another port (0 picks a free one)`;
    if (code === 'EACCES') return `${port} needs privileges this process does not have: choose a port from 1024 up`;
    if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine`;
  }
  if (syscall === 'getaddrinfo') return `${host} does not resolve to an address`;
  if (code === 'ERR_SQLITE_ERROR' && errcode === SQLITE_NOTADB) return `${db} is not an SQLite database`;
  if (code === 'ERR_SQLITE_ERROR' && errcode === SQLITE_CANTOPEN)
    return `${db} cannot be opened: it is a folder, or this user may not read and write it`;
  if (syscall === 'mkdir') {
    return `${db} cannot be created: ${code === 'EEXIST' || code === 'ENOTDIR' ? 'a part of its folder path is a file' : `its folder cannot be made (${code})`}`;
  }
  return undefined;
}
