// (1) The write ceiling: the same parsed rows, table, connection settings and statements (sixteen rows
// each, batch-insert.ts) as the engine; no index, no rollup; transactions of one page. (2) The parse
// rate of pages in memory.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ShieldBatch } from '../src/store/rows.js';
import { openArchive } from '../src/store/sqlite/archive.js';
import { BatchInsert } from '../src/store/sqlite/batch-insert.js';
import { SHIELD_TABLE } from '../src/store/entry-tables.js';
import { entryInsertColumns, entryRows } from '../src/store/sqlite/entry-insert.js';
import { BENCH_DAY, parsePage } from './rows.js';

/**
 * Rows per second stored with no index, as the engine's archive connection stores them; with `key`, with
 * a unique index on those columns instead (`npm run bench:keys`).
 */
export async function measureLimit(
  dir: string,
  pages: ShieldBatch[],
  key: string | null = null,
): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'limit.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const archive = openArchive(path, { backgroundCheckpoints: true, cacheMiB: 8 });
  try {
    const { db } = archive;
    db.exec('DROP INDEX shield_event_logs_key');
    if (key) db.exec(`CREATE UNIQUE INDEX k ON shield_event_logs (${key})`);
    const insert = new BatchInsert(db, 'shield_event_logs', entryInsertColumns(SHIELD_TABLE), key);
    const store = db.transaction((b: ShieldBatch) =>
      insert.run(b.logId.length, entryRows(SHIELD_TABLE, 201, BENCH_DAY, b, archive.batches.next())),
    );
    let rows = 0;
    const started = performance.now();
    for (const page of pages) {
      store.immediate(page);
      rows += page.logId.length;
      await yieldToLoop(); // as between pages in the engine
    }
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Entries per second through outer JSON, validation, embedded log JSON and row building. */
export function measureParse(texts: string[]): number {
  let entries = 0;
  const started = performance.now();
  for (const text of texts) entries += parsePage(text).logId.length;
  return entries / ((performance.now() - started) / 1000);
}
