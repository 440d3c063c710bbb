// The store's answers that mean the archive's file, disk or server is the trouble, not the data, as
// errors that name the archive, the cause and the fix. Here SQLite's (a full disk, a read-only file or
// directory, an I/O error, a lock held too long, a file it cannot open): better-sqlite3 reports them as
// bare SqliteErrors ("database or disk is full"), which say neither which file nor what to do.
// PostgreSQL's are sorted in postgres/postgres-error.ts into the same StoreError.
import { basename } from 'node:path';
import { EdgelogError } from '../errors/edgelog-error.js';

/** What failed: the first five of SQLite or PostgreSQL, the others of PostgreSQL only. */
export type StoreFailure =
  | 'full'
  | 'readonly'
  | 'ioerr'
  | 'busy'
  | 'cantopen'
  | 'unreachable'
  | 'auth'
  | 'no-database'
  | 'too-many-connections'
  | 'privilege'
  | 'tls';

export type SqliteFailure = 'full' | 'readonly' | 'ioerr' | 'busy' | 'cantopen';

/** Pure: the failure a SQLite result code (extended codes included) stands for, if it is one of these. */
export function storeFailure(code: string): SqliteFailure | undefined {
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_READONLY')) return 'readonly';
  if (code.startsWith('SQLITE_IOERR')) return 'ioerr';
  if (code.startsWith('SQLITE_BUSY')) return 'busy';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'cantopen';
  return undefined;
}

/**
 * Whether the same write may succeed later without anyone changing edgelog: space freed, a permission or
 * a mount fixed, a lock released, a server back or a connection free. A file that cannot be opened, a
 * login refused, a missing database or privilege, and TLS that cannot be agreed need the setup fixed.
 */
const RETRYABLE: Record<StoreFailure, boolean> = {
  full: true,
  readonly: true,
  ioerr: true,
  busy: true,
  cantopen: false,
  unreachable: true,
  auth: false,
  'no-database': false,
  'too-many-connections': true,
  privilege: false,
  tls: false,
};

/** `writing`: while ingesting (a job retries it); `opening`: at start (the command stops). */
export type StoreAction = 'writing' | 'opening';

/** What a message adds when a job will retry the write by itself. */
export function retriedNote(action: StoreAction): string {
  return action === 'writing'
    ? '; the day is kept at its last checkpoint and ingestion resumes by itself'
    : '';
}

/** Pure: the message for a failure of the archive at `file`. `sqlite` is SQLite's own text and code. */
export function storeErrorMessage(
  failure: SqliteFailure,
  file: string,
  sqlite: string,
  action: StoreAction,
): string {
  const sidecars = `${basename(file)}-wal and -shm`;
  const retried = retriedNote(action);
  switch (failure) {
    case 'full':
      return `disk full ${action} ${file} (${sqlite}): free space on its filesystem${retried}`;
    case 'readonly':
      return (
        `the archive ${file} is read-only (${sqlite}): let the user edgelog runs as write the file and ` +
        `its directory (SQLite keeps ${sidecars} beside it), or mount the filesystem read-write${retried}`
      );
    case 'ioerr':
      return `I/O error ${action} ${file} (${sqlite}): check the disk and its filesystem (dmesg)${retried}`;
    case 'busy':
      return (
        `the archive ${file} stayed locked by another connection beyond the busy timeout (${sqlite}): ` +
        `another process is writing it (a second worker, a backup tool holding a write lock)${retried}`
      );
    case 'cantopen':
      return (
        `cannot open the archive ${file} or the ${sidecars} beside it (${sqlite}): check that its ` +
        'directory exists and that the user edgelog runs as may write it'
      );
  }
}

/**
 * The archive's file, disk or server failed. `location` is the SQLite file or the PostgreSQL URL without
 * its password; `code` is the store's (SQLITE_FULL, a SQLSTATE such as 53100, ECONNREFUSED), `cause` its
 * error; `message` names the archive, the cause and the fix.
 */
export class StoreError extends EdgelogError {
  override name = 'StoreError';
  readonly code: string;
  readonly location: string;
  readonly failure: StoreFailure;

  constructor(failure: StoreFailure, location: string, code: string, message: string, cause?: unknown) {
    super(message, { retryable: RETRYABLE[failure], cause });
    this.code = code;
    this.location = location;
    this.failure = failure;
  }
}

/**
 * `err` as a StoreError naming `file`, when it is SQLite's answer to one of the failures above (already
 * one: unchanged); any other error unchanged.
 */
export function asStoreError(err: Error, file: string, action: StoreAction = 'writing'): Error {
  const code = (err as { code?: unknown }).code;
  if (err instanceof StoreError || typeof code !== 'string') return err;
  const failure = storeFailure(code);
  if (!failure) return err;
  return new StoreError(
    failure,
    file,
    code,
    storeErrorMessage(failure, file, `${code}: ${err.message}`, action),
    err,
  );
}
