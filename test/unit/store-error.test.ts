// SQLite result codes sorted into the archive failures edgelog names, and the messages they get.
import { describe, expect, it } from 'vitest';
import { asStoreError, storeFailure, StoreError, type StoreFailure } from '../../src/store/store-error.js';

describe('storeFailure', () => {
  it.each<[string, StoreFailure | undefined]>([
    ['SQLITE_FULL', 'full'],
    ['SQLITE_READONLY', 'readonly'],
    ['SQLITE_READONLY_DIRECTORY', 'readonly'],
    ['SQLITE_READONLY_DBMOVED', 'readonly'],
    ['SQLITE_IOERR', 'ioerr'],
    ['SQLITE_IOERR_WRITE', 'ioerr'],
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_CANTOPEN', 'cantopen'],
    ['SQLITE_CONSTRAINT_UNIQUE', undefined],
    ['SQLITE_ERROR', undefined],
    ['SQLITE_CORRUPT', undefined],
  ])('%s', (code, failure) => expect(storeFailure(code)).toBe(failure));
});

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });
const FILE = '/var/lib/edgelog/edgelog.db';

describe('asStoreError', () => {
  it.each<[string, string, boolean, RegExp]>([
    [
      'SQLITE_FULL',
      'database or disk is full',
      true,
      /^disk full writing \/var\/lib\/edgelog\/edgelog\.db \(SQLITE_FULL: database or disk is full\): free space on its filesystem; the day is kept at its last checkpoint and ingestion resumes by itself$/,
    ],
    [
      'SQLITE_READONLY',
      'attempt to write a readonly database',
      true,
      /^the archive \/var\/lib\/edgelog\/edgelog\.db is read-only \(SQLITE_READONLY: .*\): let the user edgelog runs as write the file and its directory \(SQLite keeps edgelog\.db-wal and -shm beside it\)/,
    ],
    [
      'SQLITE_IOERR_WRITE',
      'disk I/O error',
      true,
      /^I\/O error writing \/var\/lib\/edgelog\/edgelog\.db \(SQLITE_IOERR_WRITE: disk I\/O error\): check the disk/,
    ],
    [
      'SQLITE_BUSY',
      'database is locked',
      true,
      /^the archive \/var\/lib\/edgelog\/edgelog\.db stayed locked by another connection beyond the busy timeout \(SQLITE_BUSY: database is locked\)/,
    ],
    [
      'SQLITE_CANTOPEN',
      'unable to open database file',
      false,
      /^cannot open the archive \/var\/lib\/edgelog\/edgelog\.db or the edgelog\.db-wal and -shm beside it \(SQLITE_CANTOPEN: unable to open database file\): check that its directory exists/,
    ],
  ])('%s: names the file, the cause and the fix', (code, text, retryable, message) => {
    const cause = sqliteError(code, text);
    const err = asStoreError(cause, FILE);
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({ code, file: FILE, retryable, cause });
    expect(err.message).toMatch(message);
  });

  it('at start, it does not promise that ingestion resumes', () => {
    const err = asStoreError(sqliteError('SQLITE_FULL', 'database or disk is full'), FILE, 'opening');
    expect(err.message).toBe(
      `disk full opening ${FILE} (SQLITE_FULL: database or disk is full): free space on its filesystem`,
    );
  });

  it('leaves other errors, and store errors already made, as they are', () => {
    const constraint = sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed');
    expect(asStoreError(constraint, FILE)).toBe(constraint);
    const plain = new Error('boom');
    expect(asStoreError(plain, FILE)).toBe(plain);
    const made = asStoreError(sqliteError('SQLITE_FULL', 'database or disk is full'), FILE);
    expect(asStoreError(made, '/elsewhere.db')).toBe(made);
  });
});
