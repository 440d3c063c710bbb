// The archive's size at scrape time. SQLite: the database file and its write-ahead log (absent between
// checkpoints that truncate it, which reads as 0). PostgreSQL: the database (pg_database_size, the
// archive's own: one database per archive); its WAL is the server's, shared, and not edgelog's to report.
import { stat } from 'node:fs/promises';
import type { ArchiveStore } from '../store/store.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

/** pg_database_size of the archive's database, through a bounded read-only query. */
function databaseSize(store: Pick<ArchiveStore, 'queries'>): Promise<number> {
  return store.queries.readOnly(
    'SELECT pg_database_size(current_database())',
    { timeoutMs: 1_000 },
    async (cursor) => Number((await cursor.next(1))[0]?.[0] ?? 0),
  );
}

export function archiveCollector(
  m: MetricSet,
  store: Pick<ArchiveStore, 'dialect' | 'location' | 'queries'>,
): Collector {
  return {
    name: 'archive',
    async collect() {
      if (store.dialect === 'postgres') {
        m.archiveSize.set({ file: 'database' }, await databaseSize(store));
        return;
      }
      const [database, wal] = await Promise.all([sizeOf(store.location), sizeOf(`${store.location}-wal`)]);
      m.archiveSize.set({ file: 'database' }, database);
      m.archiveSize.set({ file: 'wal' }, wal);
    },
  };
}
