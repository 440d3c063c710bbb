// The archive's size at scrape time (store.health.size: SQLite's file and its write-ahead log,
// PostgreSQL's database).
import type { ArchiveStore } from '../store/store.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export function archiveCollector(m: MetricSet, store: Pick<ArchiveStore, 'health'>): Collector {
  return {
    name: 'archive',
    async collect() {
      const size = await store.health.size();
      m.archiveSize.set({ file: 'database' }, size.database);
      if (size.wal !== undefined) m.archiveSize.set({ file: 'wal' }, size.wal);
    },
  };
}
