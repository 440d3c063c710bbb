// The one way the commands that only read (query, report, status, alerts list) open the archive: the
// SQLite file read-only (never created, never migrated), or PostgreSQL through the readers' URL
// (`database.readerUrl`, else `url`) with connections of their own, no migration and no partition made,
// which a role that may only read can do. Each part is opened on first use and closed by close(). The
// PostgreSQL store (and `pg` with it) is loaded only for a server, so SQLite readers do not pay for it.
//
// The workers' store (read-write, migrated) is openStore's (open-store.ts).
import { readerServer } from '../config/reader-config.js';
import type { ArchiveReader, OpenReaderOptions, ReaderTarget } from './store.js';

export async function openReader(target: ReaderTarget, opts: OpenReaderOptions): Promise<ArchiveReader> {
  const url = readerServer(target);
  if (url !== null) {
    const { postgresReader } = await import('./postgres/reader.js');
    return postgresReader({ url, ssl: target.ssl }, opts);
  }
  const { sqliteReader } = await import('./sqlite/reader.js');
  return sqliteReader(target.path);
}
