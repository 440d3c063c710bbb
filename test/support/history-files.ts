// A stand-in for the compactor (histw's), for the query side's tests: writes one table-zone-day of the
// store into the history's layout as the contract says (every column but id and time, sorted, zstd),
// through DuckDB to a temporary name in the day's directory, then renamed over data.parquet. Swap in the
// real compactor when it lands.
import { mkdirSync, renameSync } from 'node:fs';
import { DuckDBDataChunk } from '@duckdb/node-api';
import { HISTORY_COLUMNS } from '../../src/store/history-columns.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import {
  dataFile,
  dayDir,
  tempFile,
  type HistorySource,
  type HistoryTable,
} from '../../src/history/layout.js';
import { sqlStringLiteral } from '../../src/history/statement-tables.js';
import { removeTimeRangesBut, writeTimeRange } from '../../src/history/time-range.js';
import { postgresQueries } from '../../src/store/postgres/postgres-store.js';
import { sqliteReader } from '../../src/store/sqlite/reader.js';
import type { QueryStore } from '../../src/store/store.js';
import type { Harness } from './harness.js';

/** The harness's store, read as `edgelog query` reads it. */
export function storeQueries(h: Pick<Harness, 'dbPath' | 'databaseUrl'>): QueryStore {
  return h.databaseUrl === undefined
    ? sqliteReader(h.dbPath).queries
    : postgresQueries({ url: h.databaseUrl });
}

/**
 * Writes the store's rows of one table-zone-day to `<root>/…/data.parquet`; returns how many. An entry
 * file gets its timestamp marker (time-range.ts) as the compactor makes it, unless `marker` is false.
 */
export async function writeHistoryDay(
  store: QueryStore,
  root: string,
  table: HistoryTable,
  zone: number,
  day: string,
  source?: HistorySource,
  { marker = true }: { marker?: boolean } = {},
): Promise<number> {
  const { columns, zoneColumn, sourceColumn } = HISTORY_COLUMNS[table];
  const dir = dayDir(root, table, zone, day, source);
  mkdirSync(dir, { recursive: true });
  const names = columns.map(([n]) => n);
  const where = `${zoneColumn} = ${zone} AND log_date = '${day}'${sourceColumn ? ` AND ${sourceColumn} = '${source}'` : ''}`;
  const order = table === 'quarantined_entries' ? 'page, position' : 'timestamp, log_id';
  const conn = await openDuckDb();
  try {
    await conn.run(`CREATE TABLE day (${columns.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
    const appender = await conn.createAppender('day');
    const types = columns.map((_, i) => appender.columnType(i));
    let rows = 0;
    await store.readOnly(
      `SELECT ${names.join(', ')} FROM ${table} WHERE ${where}`,
      { timeoutMs: null },
      async (c) => {
        for (let batch = await c.next(2048); batch.length > 0; batch = await c.next(2048)) {
          const chunk = DuckDBDataChunk.create(types, batch.length);
          chunk.setRows(batch as Array<Array<bigint | string | null>>);
          appender.appendDataChunk(chunk);
          rows += batch.length;
        }
      },
    );
    appender.closeSync();
    const temp = tempFile(dir, `${process.pid}-${rows}`);
    await conn.run(
      `COPY (SELECT * FROM day ORDER BY ${order}) TO ${sqlStringLiteral(temp)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    let made: string | null = null;
    if (marker && table !== 'quarantined_entries' && rows > 0) {
      const bounds = await conn.runAndReadAll('SELECT min(timestamp), max(timestamp) FROM day');
      const [min, max] = bounds.getRows()[0] as [bigint, bigint];
      made = writeTimeRange(dir, { min, max });
    }
    renameSync(temp, dataFile(root, table, zone, day, source));
    removeTimeRangesBut(dir, made);
    return rows;
  } finally {
    conn.closeSync();
  }
}
