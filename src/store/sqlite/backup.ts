// An online copy of the archive while the worker writes: SQLite's backup API, page by page, from one
// snapshot. The copy is written under a temporary name beside the target and renamed at the end, so the
// target is either absent, the old file, or the whole new copy. The copy is the owner's alone while it
// is written, and gets the source's mode at the end: a backup is no more readable than its archive.
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EdgelogError } from '../../errors/index.js';
import { createWithMode, PRIVATE_FILE_MODE } from '../../file-modes.js';
import { openDatabase } from './database.js';

export interface BackupProgress {
  totalPages: number;
  remainingPages: number;
  pageSize: number;
}

export interface BackupOptions {
  /** Pages copied per step; between steps the event loop runs (progress, signals). @defaultValue 1024 */
  pagesPerStep?: number;
  /** Called after each step. */
  onProgress?: (progress: BackupProgress) => void;
  /** Aborts the copy between two steps; the temporary file is removed. */
  signal?: AbortSignal;
}

export interface BackupResult {
  /** Absolute path of the copy. */
  path: string;
  bytes: number;
  pages: number;
}

/** Where the copy is written before it is renamed to `dest`: the same directory, so rename is atomic. */
export function temporaryName(dest: string, pid = process.pid): string {
  return join(dirname(dest), `.${basename(dest)}.partial-${pid}`);
}

/**
 * Copies the archive at `source` to `dest` (which the caller has checked it may replace). Other
 * processes may write to the source meanwhile; the copy holds the state of the moment it began.
 */
export async function backupArchive(
  source: string,
  dest: string,
  opts: BackupOptions = {},
): Promise<BackupResult> {
  const target = resolve(dest);
  if (target === resolve(source)) throw new EdgelogError(`cannot back up ${target} onto itself`);
  if (!existsSync(dirname(target)))
    throw new EdgelogError(`cannot write ${target}: the directory ${dirname(target)} does not exist`);
  const temp = temporaryName(target);
  const db = openDatabase(source, { readonly: true });
  try {
    // One read transaction over every step: the copy is of this snapshot. Without it, SQLite restarts
    // the backup whenever another connection commits, and under a busy worker it might never finish.
    db.exec('BEGIN');
    db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const step = opts.pagesPerStep ?? 1024;
    rmSync(temp, { force: true });
    createWithMode(temp, PRIVATE_FILE_MODE);
    const done = await db.backup(temp, {
      progress: ({ totalPages, remainingPages }) => {
        if (opts.signal?.aborted) throw opts.signal.reason ?? new EdgelogError('backup aborted');
        opts.onProgress?.({ totalPages, remainingPages, pageSize });
        return step;
      },
    });
    db.exec('COMMIT');
    chmodSync(temp, statSync(source).mode & 0o777);
    renameSync(temp, target);
    syncDirectory(dirname(target));
    return { path: target, bytes: statSync(target).size, pages: done.totalPages };
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

/** Makes the rename durable (Linux); where a directory cannot be opened, the rename stands as is. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here (e.g. Windows): nothing more to do
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
