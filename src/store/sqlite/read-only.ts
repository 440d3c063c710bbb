// The connection every query and report uses: read-only at open and again per statement, and usable by
// a user who may read the archive but not write its directory.
import { accessSync, constants, statSync, type BigIntStats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EdgelogError } from '../../errors/edgelog-error.js';
import { openDatabase, type Db } from './database.js';
import { OutputClosedError, type Output } from '../../format/output.js';
import { readPlan, type ArchiveFiles } from './read-plan.js';
import { SnapshotChangedError } from './snapshot-changed-error.js';

export interface ReadOnlyConnection {
  db: Db;
  /** True when the file was read as an immutable snapshot (see read-plan.ts), without locks. */
  snapshot: boolean;
  /**
   * Throws SnapshotChangedError when a snapshot's file was written since it was opened (a worker
   * started and checkpointed), with `cause` as its cause. A no-op for a WAL read.
   */
  verify(cause?: unknown): void;
}

/**
 * Runs `read` on the connection, verifying it before each write to `out` (a table or a report is written
 * once, after its last row is read, so a changed snapshot fails before anything is shown) and when the
 * read fails: SQLite reading a file that changed under it often reports SQLITE_CORRUPT, and the change
 * is then the error to show, SQLite's its cause.
 */
export async function verifiedRead<T>(
  conn: ReadOnlyConnection,
  out: Output,
  read: (db: Db, out: Output) => Promise<T>,
): Promise<T> {
  const verified: Output = {
    write(text) {
      conn.verify();
      return out.write(text);
    },
  };
  try {
    return await read(conn.db, verified);
  } catch (err) {
    if (!(err instanceof OutputClosedError)) conn.verify(err);
    throw err;
  }
}

/**
 * Opens an existing archive read-only. `query_only` is a second lock on top of the read-only open: even
 * a statement that slipped past the checks in prepare-query.ts cannot write. In WAL mode the reader
 * sees the last committed state while the worker keeps writing. Nothing is created beside the file
 * unless a `-wal` without its `-shm` is found there (SQLite needs the `-shm` to read the log).
 */
export function openReadOnlyConnection(path: string): ReadOnlyConnection {
  const files = archiveFiles(resolve(path));
  const plan = readPlan(files);
  if (plan.kind === 'refused')
    throw new EdgelogError(`cannot open the database ${files.file}: ${plan.reason}`);
  const snapshot = plan.kind === 'snapshot';
  const before = snapshot ? fileStamp(files.file) : '';
  const db = openDatabase(files.file, { readonly: true, immutable: snapshot });
  db.pragma('query_only = ON');
  return {
    db,
    snapshot,
    verify(cause) {
      if (snapshot && fileStamp(files.file) !== before) throw new SnapshotChangedError(files.file, cause);
    },
  };
}

/** The connection alone, for reads that do not check a snapshot afterwards (views, tests). */
export function openReadOnly(path: string): Db {
  return openReadOnlyConnection(path).db;
}

function can(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function stat(path: string): BigIntStats | null {
  return statSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
}

function archiveFiles(file: string): ArchiveFiles {
  const wal = stat(`${file}-wal`);
  return {
    file,
    exists: stat(file) !== null,
    readable: can(file, constants.R_OK),
    wal: wal && { bytes: Number(wal.size), readable: can(`${file}-wal`, constants.R_OK) },
    shm: stat(`${file}-shm`) && { readable: can(`${file}-shm`, constants.R_OK) },
    dirWritable: can(dirname(file), constants.W_OK),
  };
}

/**
 * A write changes the modification time, the size (a checkpoint that grows the file) or the inode (a
 * replaced file). The time is only as fine as the file system keeps it (a few ms on Linux), so a write
 * within that tick of opening can go unseen; SQLite then most often fails with SQLITE_CORRUPT itself.
 */
function fileStamp(file: string): string {
  const s = stat(file);
  return s ? `${s.ino}:${s.size}:${s.mtimeNs}` : 'gone';
}
