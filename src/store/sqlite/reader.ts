// The readers' SQLite archive (open-reader.ts): the file read-only, each part opened on first use.
import type { ArchiveReader } from '../store.js';
import type { StatusReads } from '../store.js';
import { lazyAlertPorts } from '../reader-alert-ports.js';
import { sqliteStatusReads } from './health.js';
import { openReadOnlyConnection, verifiedRead, type ReadOnlyConnection } from './read-only.js';
import { sqliteReportStore } from './reports.js';
import { readOnlyQuery } from './read-only-query.js';
import type { SqliteStore } from './sqlite-store.js';

export function sqliteReader(path: string): ArchiveReader {
  let conn: ReadOnlyConnection | undefined;
  let status: StatusReads | undefined;
  let store: Promise<SqliteStore> | undefined;
  // The alert tables through the archive itself, opened as the worker opens it (loaded only for them).
  const archive = () =>
    (store ??= import('./sqlite-store.js').then((m) =>
      m.openSqliteStore(path, { backgroundCheckpoints: false }),
    ));
  return {
    dialect: 'sqlite',
    get status() {
      conn ??= openReadOnlyConnection(path);
      return (status ??= sqliteStatusReads(conn.db));
    },
    queries: {
      dialect: 'sqlite',
      readOnly: (sql, _opts, consume) => readOnlyQuery(path, sql, consume),
    },
    ...lazyAlertPorts(archive),
    async report(out, read) {
      const snapshot = openReadOnlyConnection(path);
      try {
        return await verifiedRead(snapshot, out, (db, o) => read(sqliteReportStore(db), o));
      } finally {
        snapshot.db.close();
      }
    },
    async close() {
      conn?.db.close();
      // An archive that failed to open has nothing to close (its error went to the read that asked).
      const opened = await store?.catch(() => undefined);
      await opened?.close();
    },
  };
}
