// The archive's size at scrape time (store.health.size: SQLite's file and its write-ahead log,
// PostgreSQL's database), and the history's losses (history/history-health.ts): entries no reader
// returns any more are a metric an alert fires on, never a log line alone.
import { readHistoryHealth } from '../history/history-health.js';
import type { ArchiveStore } from '../store/store.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export function archiveCollector(
  m: MetricSet,
  store: Pick<ArchiveStore, 'health' | 'queries'>,
  historyRoot: string | null,
): Collector {
  return {
    name: 'archive',
    async collect() {
      const size = await store.health.size();
      m.archiveSize.set({ file: 'database' }, size.database);
      if (size.wal !== undefined) m.archiveSize.set({ file: 'wal' }, size.wal);
      if (historyRoot === null) return;
      const health = await readHistoryHealth(store.queries, historyRoot);
      for (const kind of ['missing', 'lost'] as const) {
        const issues = health.issues.filter((i) => i.issue === kind && (kind === 'lost' || i.pruned));
        m.historyLostEntries.set(
          { kind },
          issues.reduce((n, i) => n + i.entries, 0),
        );
        m.historyIssueDays.set({ kind }, health.issues.filter((i) => i.issue === kind).length);
      }
    },
  };
}
