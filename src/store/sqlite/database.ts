// Opening the SQLite archive with the settings every connection needs.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { coerceError } from '../../errors/coerce-error.js';
import { EdgelogError } from '../../errors/edgelog-error.js';
import { ARCHIVE_FILE_MODE, createWithMode, DATA_DIR_MODE } from '../../file-modes.js';
import { asStoreError, StoreError } from '../store-error.js';
import { registerTermFunctions } from './term-functions.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** Query tools open read-only connections; the file must then exist. @defaultValue false */
  readonly?: boolean;
  /**
   * With `readonly`: read the file as SQLite's `immutable` snapshot, with no locks and no `-wal`/`-shm`
   * files (none is read, none is created). Only correct when the file holds every commit (there is no
   * `-wal` beside it) and nothing writes it meanwhile; read-only.ts decides and checks that.
   * @defaultValue false
   */
  immutable?: boolean;
  /** Page cache per connection, in MiB. @defaultValue 64 */
  cacheMiB?: number;
}

/** Opens (creating the directory and file when writable) the archive at `path`. */
export function openDatabase(path: string, opts: OpenOptions = {}): Db {
  const file = path === ':memory:' ? path : resolve(path);
  const readonly = opts.readonly === true;
  if (opts.immutable && !readonly) throw new TypeError('openDatabase: `immutable` needs `readonly`');
  // better-sqlite3 takes `file:` URIs (the only way to pass `immutable`) only when SQLITE_USE_URI=1 is in
  // the environment as its native addon loads, at the first `new Database` of the process. Our own paths
  // are absolute or `:memory:`, so turning URIs on changes nothing for them.
  process.env.SQLITE_USE_URI ??= '1';
  const name = opts.immutable ? `${pathToFileURL(file).href}?immutable=1` : file;
  let db: Db | undefined;
  try {
    if (!readonly && file !== ':memory:') {
      // Not world-readable under any umask (file-modes.ts); SQLite gives -wal and -shm the file's mode.
      mkdirSync(dirname(file), { recursive: true, mode: DATA_DIR_MODE });
      createWithMode(file, ARCHIVE_FILE_MODE);
    }
    db = new Database(name, readonly ? { readonly: true, fileMustExist: true } : {});
    if (!readonly && file !== ':memory:' && isEmpty(db)) {
      // Before the first table: pages freed by pruning the days moved to the Parquet history go back to
      // the file system (sqlite/history.ts reclaim). Only a new file can take it without a VACUUM.
      db.pragma('auto_vacuum = INCREMENTAL');
    }
    if (!readonly) {
      // WAL lets readers (queries, reports) run while the worker writes; NORMAL is durable across
      // process crashes in WAL mode and only risks the last commits on power loss.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    // A read-only connection opens the -wal and -shm files at its first statement, this one: failing
    // here keeps the error "cannot open the database" instead of a bare SQLite error later.
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${(opts.cacheMiB ?? 64) * 1024}`);
    // A judgement counts the entries not merged into term_hourly yet with them, on any connection.
    registerTermFunctions(db);
    if (!readonly && file !== ':memory:') probeWrite(db);
    return db;
  } catch (cause) {
    db?.close();
    // A writer's full disk, read-only file or directory: named, with the fix (store-error.ts).
    const named = readonly ? cause : asStoreError(coerceError(cause), file, 'opening');
    if (named instanceof StoreError) throw named;
    const hint =
      readonly && !existsSync(file) ? ' (run `edgelog sync` or `edgelog migrate` first to create it)' : '';
    throw new EdgelogError(`cannot open the database ${file}: ${(cause as Error).message}${hint}`, { cause });
  }
}

/** A file with no schema yet (just created). */
function isEmpty(db: Db): boolean {
  return Number(db.pragma('page_count', { simple: true })) === 0;
}

/**
 * SQLite opens a file this user may not write read-only, without a word: the first write (a page of the
 * first day) would fail. A write rolled back at once finds that out now. A lock held by another writer
 * proves nothing either way, and is left to the busy timeout of real writes.
 */
function probeWrite(db: Db): void {
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (err) {
    if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return;
    throw err;
  }
  try {
    const version = Number(db.pragma('user_version', { simple: true }));
    db.pragma(`user_version = ${version}`);
  } finally {
    db.exec('ROLLBACK');
  }
}
