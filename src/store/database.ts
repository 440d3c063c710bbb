// Opening the SQLite archive with the settings every connection needs.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EdgelogError } from '../errors/index.js';

export type Db = Database.Database;

export interface OpenOptions {
  /** Query tools open read-only connections; the file must then exist. @defaultValue false */
  readonly?: boolean;
  /** Page cache per connection, in MiB. @defaultValue 64 */
  cacheMiB?: number;
}

/** Opens (creating the directory and file when writable) the archive at `path`. */
export function openDatabase(path: string, opts: OpenOptions = {}): Db {
  const file = path === ':memory:' ? path : resolve(path);
  let db: Db;
  try {
    if (!opts.readonly && file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    db = new Database(file, opts.readonly ? { readonly: true, fileMustExist: true } : {});
  } catch (cause) {
    const hint = opts.readonly ? ' (run `edgelog sync` or `edgelog migrate` first to create it)' : '';
    throw new EdgelogError(`cannot open the database ${file}: ${(cause as Error).message}${hint}`, { cause });
  }
  if (!opts.readonly) {
    // WAL lets readers (queries, reports) run while the worker writes; NORMAL is durable across
    // process crashes in WAL mode and only risks the last commits on power loss.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${(opts.cacheMiB ?? 64) * 1024}`);
  return db;
}
