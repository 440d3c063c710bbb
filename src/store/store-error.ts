// SQLite's answers that mean the archive's file or disk is the trouble, not the data (a full disk, a
// read-only file or directory, an I/O error, a lock held too long, a file it cannot open), as errors that
// name the file, the cause and the fix. better-sqlite3 reports them as bare SqliteErrors ("database or
// disk is full"), which say neither which file nor what to do.
import { basename } from 'node:path';
import { EdgelogError } from '../errors/edgelog-error.js';

export type StoreFailure = 'full' | 'readonly' | 'ioerr' | 'busy' | 'cantopen';

/** Pure: the failure a SQLite result code (extended codes included) stands for, if it is one of these. */
export function storeFailure(code: string): StoreFailure | undefined {
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_READONLY')) return 'readonly';
  if (code.startsWith('SQLITE_IOERR')) return 'ioerr';
  if (code.startsWith('SQLITE_BUSY')) return 'busy';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'cantopen';
  return undefined;
}

/**
 * Whether the same write may succeed later without anyone changing edgelog: space freed, a permission or
 * a mount fixed, a lock released. A file that cannot be opened needs its directory or path fixed.
 */
const RETRYABLE: Record<StoreFailure, boolean> = {
  full: true,
  readonly: true,
  ioerr: true,
  busy: true,
  cantopen: false,
};

/** `writing`: while ingesting (a job retries it); `opening`: at start (the command stops). */
export type StoreAction = 'writing' | 'opening';

/** Pure: the message for a failure of the archive at `file`. `sqlite` is SQLite's own text and code. */
export function storeErrorMessage(
  failure: StoreFailure,
  file: string,
  sqlite: string,
  action: StoreAction,
): string {
  const sidecars = `${basename(file)}-wal and -shm`;
  const retried =
    action === 'writing' ? '; the day is kept at its last checkpoint and ingestion resumes by itself' : '';
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

/** The archive's file or disk failed; `code` is SQLite's (e.g. SQLITE_FULL), `cause` its SqliteError. */
export class StoreError extends EdgelogError {
  override name = 'StoreError';
  readonly code: string;
  readonly file: string;
  readonly failure: StoreFailure;

  constructor(
    failure: StoreFailure,
    file: string,
    code: string,
    sqliteMessage: string,
    action: StoreAction,
    cause?: unknown,
  ) {
    super(storeErrorMessage(failure, file, `${code}: ${sqliteMessage}`, action), {
      retryable: RETRYABLE[failure],
      cause,
    });
    this.code = code;
    this.file = file;
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
  return failure ? new StoreError(failure, file, code, err.message, action, err) : err;
}
