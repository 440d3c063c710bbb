// The modes of what edgelog creates on disk. Shield entries hold request headers and bodies (cookies,
// tokens), so nothing is for every user of the host, whatever the umask: the archive is its owner's to
// write and its group's to read (a member runs `edgelog query` and `report`), the embedded Redis's
// directory (its AOF holds the queue) and temporary files are the owner's alone. A stricter umask still
// narrows these; files that exist already keep the mode their owner gave them.
import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** The archive and the -wal and -shm SQLite makes beside it (SQLite gives those the archive's mode). */
export const ARCHIVE_FILE_MODE = 0o640;
/** Directories made for the archive. */
export const DATA_DIR_MODE = 0o750;
/** The embedded Redis's directory. */
export const PRIVATE_DIR_MODE = 0o700;
/** A file being written before it is renamed into place (a backup's copy). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `path` empty with `mode` when it does not exist, so that what opens it next (SQLite) finds
 * it with that mode instead of creating it world-readable. Any failure is left to that opener, which
 * names it better (a directory it may not write, a full disk).
 */
export function createWithMode(path: string, mode: number): void {
  try {
    closeSync(openSync(path, 'wx', mode));
  } catch {
    // It exists (its mode is its owner's choice), or the opener will say why it cannot be made.
  }
}

/** The history's files (parts, markers): readable by the archive's group, as the archive is. */
export const HISTORY_FILE_MODE = 0o640;

/**
 * Makes `path` and any missing parent with DATA_DIR_MODE (or `mode`): the umask can only narrow it, so a
 * directory made here is never more open than that, even inside a folder that is.
 */
export function makeDirs(path: string, mode = DATA_DIR_MODE): void {
  mkdirSync(path, { recursive: true, mode });
}

/** Creates an empty file with `mode` (HISTORY_FILE_MODE by default), or leaves an existing one; syncs it. */
export function writeEmptyFile(path: string, mode = HISTORY_FILE_MODE): void {
  const fd = openSync(path, 'a', mode);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * fsync of a file or directory off the event loop (libuv's thread pool): what a flush or a merge syncs
 * while the worker's thread goes on storing pages (a synchronous fsync held it ~17 ms per request of the
 * latency-bound bench, docs/MEASUREMENTS.md).
 */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync of a directory: the names made or renamed in it are durable once it returns. */
export function syncDir(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
