// Which database errors are the database's (503, with their cause in words) and which are ours
// (500), for both stores; and a failed ROLLBACK kept beside its cause, never instead of it.
import { describe, expect, it } from 'vitest';
import { classifyDatabaseError, faultLogFields, rollBackAfter, rollBackAfterSync } from '../../server/store/faults.ts';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const sqliteError = (errcode: number, message: string) => Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode });

describe('database faults', () => {
  it('sorts PostgreSQL and node-postgres errors into unavailable and full, with their cause', () => {
    expect(classifyDatabaseError(pgError('57014'))).toEqual({ kind: 'unavailable', cause: 'statement timeout' });
    expect(classifyDatabaseError(pgError('57P01'))).toEqual({
      kind: 'unavailable',
      cause: 'database shutting down (administrator command)',
    });
    expect(classifyDatabaseError(pgError('57P03'))?.kind).toBe('unavailable');
    expect(classifyDatabaseError(pgError('08006'))?.kind).toBe('unavailable');
    expect(classifyDatabaseError(pgError('ECONNREFUSED'))).toEqual({ kind: 'unavailable', cause: 'connection refused' });
    expect(classifyDatabaseError(new Error('Query read timeout'))?.cause).toBe('query timeout (no answer from the database)');
    expect(classifyDatabaseError(new Error('timeout exceeded when trying to connect'))?.cause).toBe('connection pool acquire timeout');
    expect(classifyDatabaseError(new Error('Connection terminated unexpectedly'))?.cause).toBe('connection lost');
    expect(classifyDatabaseError(pgError('53100'))).toEqual({ kind: 'full', cause: 'database or disk is full' });
  });

  it('sorts SQLite result codes, extended ones included', () => {
    expect(classifyDatabaseError(sqliteError(13, 'database or disk is full'))).toEqual({ kind: 'full', cause: 'database or disk is full' });
    expect(classifyDatabaseError(sqliteError(5, 'database is locked'))?.kind).toBe('unavailable');
    // SQLITE_IOERR_WRITE (778) is an I/O error.
    expect(classifyDatabaseError(sqliteError(778, 'disk I/O error'))).toEqual({ kind: 'unavailable', cause: 'disk I/O error' });
  });

  it('leaves our own faults to be 500s: constraint violations, SQL mistakes, plain errors', () => {
    expect(classifyDatabaseError(pgError('23505'))).toBeUndefined();
    expect(classifyDatabaseError(pgError('42P01'))).toBeUndefined();
    expect(classifyDatabaseError(sqliteError(1, 'no such table: nope'))).toBeUndefined();
    expect(classifyDatabaseError(new TypeError('x is undefined'))).toBeUndefined();
    expect(classifyDatabaseError(undefined)).toBeUndefined();
  });

  it('keeps a failed ROLLBACK beside the error that caused it', async () => {
    const cause = sqliteError(13, 'database or disk is full');
    const failedRollback = sqliteError(1, 'cannot rollback - no transaction is active');
    expect(
      rollBackAfterSync(cause, () => {
        throw failedRollback;
      }),
    ).toBe(false);
    expect(faultLogFields(cause)).toEqual({ cause: 'database or disk is full', rollbackErr: failedRollback });

    const lost = new Error('Connection terminated unexpectedly');
    expect(await rollBackAfter(lost, () => Promise.reject(new Error('Client was closed and is not queryable')))).toBe(false);
    expect((faultLogFields(lost).rollbackErr as Error).message).toBe('Client was closed and is not queryable');
    expect(await rollBackAfter(new Error('x'), () => Promise.resolve())).toBe(true);
  });
});
