// The archive's size on disk at scrape time: the database file and its write-ahead log (absent between
// checkpoints that truncate it, which reads as 0).
import { stat } from 'node:fs/promises';
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

export function archiveCollector(m: MetricSet, dbPath: string): Collector {
  return {
    name: 'archive',
    async collect() {
      const [database, wal] = await Promise.all([sizeOf(dbPath), sizeOf(`${dbPath}-wal`)]);
      m.archiveSize.set({ file: 'database' }, database);
      m.archiveSize.set({ file: 'wal' }, wal);
    },
  };
}
