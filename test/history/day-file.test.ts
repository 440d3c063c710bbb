// One day's file written from the store's JSON lines (src/history/day-file.ts) against a real DuckDB and
// real files: a row of any size is read (DuckDB's JSON reader refuses a line longer than twice its
// maximum_object_size, 16 MiB by default), and what the file holds verifies against the keys given.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishDayFile, readFile } from '../../src/history/day-file.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import { SHIELD_SHAPE } from '../../src/store/history-columns.js';
import { historyPage } from '../../src/store/history-page.js';
import type { HistoryPage, HistoryValue } from '../../src/store/history-store.js';

/** A Shield row in the file's columns, as a page's row: its key, then its JSON array text. */
function row(logId: string, timestamp: number, message: string): HistoryValue[] {
  const values = SHIELD_SHAPE.columns.map((c) =>
    c.name === 'shield_zone_id'
      ? 201
      : c.name === 'log_id'
        ? logId
        : c.name === 'log_date'
          ? '2026-11-20'
          : c.name === 'timestamp'
            ? timestamp
            : c.name === 'message'
              ? message
              : null,
  );
  return [201, timestamp, logId, JSON.stringify(values)];
}

/** The rows as one page, as the async iterable the compactor hands over. */
function pages(...rows: HistoryValue[][]): AsyncIterable<HistoryPage> {
  return {
    [Symbol.asyncIterator]: () => {
      const it = [historyPage(rows)][Symbol.iterator]();
      return { next: () => Promise.resolve(it.next()) };
    },
  };
}

describe('a day file', () => {
  let duck: DuckDBConnection;
  let root: string;
  beforeAll(async () => {
    duck = await openDuckDb();
    root = mkdtempSync(join(tmpdir(), 'edgelog-day-file-'));
  });
  afterAll(() => {
    duck?.closeSync();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('holds a row longer than DuckDB reads by default (36 MB of text), verified', async () => {
    // Three UTF-8 bytes per character: 36 MB in 12 million characters.
    const huge = '日'.repeat(12_000_000);
    const dir = join(root, 'shield_event_logs', 'zone=201', 'day=2026-11-20');
    const file = await publishDayFile(duck, {
      shape: SHIELD_SHAPE,
      dir,
      pages: pages(row('a', 1, 'small'), row('b', 2, huge), row('c', 3, 'small')),
      parquet: DEFAULT_PARQUET_OPTIONS.shield_event_logs,
    });
    expect(file).toMatchObject({ rows: 3, kept: 0 });
    const read = await duck.runAndReadAll(
      `SELECT log_id, length(message) FROM ${readFile(join(dir, 'data.parquet'))} ORDER BY log_id`,
    );
    expect(read.getRows()).toEqual([
      ['a', 5n],
      ['b', 12_000_000n],
      ['c', 5n],
    ]);
    // The lines' temporary file is gone.
    expect(readdirSync(dir).filter((n) => n.startsWith('data.parquet.'))).toEqual([]);
  });
});
