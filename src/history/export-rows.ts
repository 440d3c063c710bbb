// `edgelog export`: one table's rows of a range of days (and zones) over the same union as the history
// query, streamed: Parquet written by DuckDB itself, NDJSON and CSV encoded a DuckDB chunk at a time, the
// store's rows scanned from a file, not held, so memory stays flat however many rows there are (no row cap). Rows come in no particular order (sorting
// would hold the whole export).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Output } from '../format/output.js';
import { ENCODERS, type EncoderOptions } from '../format/row-encoders.js';
import { sqlValue } from './duckdb-values.js';
import {
  COMPACTION_DUCKDB_OPTIONS,
  DEFAULT_DUCKDB_OPTIONS,
  openDuckDb,
  type DuckDbOptions,
} from './duckdb.js';
import { closeGuarded, privateSpill } from './duckdb-guard.js';
import { createHistoryViews, type HistoryViewsOptions } from './history-views.js';
import type { HistoryTable } from './layout.js';
import { DEFAULT_PARQUET_OPTIONS, parquetOptionsSql } from './parquet-options.js';
import { sqlStringLiteral } from './statement-tables.js';
import type { ZoneDayScope } from './published-days.js';
import { WorkBudget } from './work-budget.js';

export type ExportFormat = 'parquet' | 'ndjson' | 'csv';

export interface ExportRequest extends Omit<HistoryViewsOptions, 'scope'> {
  table: HistoryTable;
  /** Days (log_date) from–to, inclusive, and optionally only some zones. */
  scope: Required<Pick<ZoneDayScope, 'from' | 'to'>> & Pick<ZoneDayScope, 'zones'>;
  /** @defaultValue COMPACTION_DUCKDB_OPTIONS for Parquet, else DEFAULT_DUCKDB_OPTIONS */
  duckdb?: DuckDbOptions;
}

/** Where the rows go: Parquet to a file DuckDB writes; text formats to an output, chunk by chunk. */
export type ExportTarget =
  { format: 'parquet'; file: string } | { format: 'ndjson' | 'csv'; out: Output; encoding?: EncoderOptions };

/** Text is handed to the output in chunks of about this many characters. */
const CHUNK = 64 * 1024;

/** Exports the rows; returns how many. */
export async function exportRows(req: ExportRequest, target: ExportTarget): Promise<number> {
  // Parquet as the history writes it: one thread, so the writer holds one row group (of a size bounded
  // per table) and not one per thread — a day of wide Shield rows ran out of memory with DuckDB's defaults.
  const conn = await openDuckDb(
    req.duckdb ?? (target.format === 'parquet' ? COMPACTION_DUCKDB_OPTIONS : DEFAULT_DUCKDB_OPTIONS),
  );
  // The store's rows are read once, as the export scans: spooled to a file in the spill directory (or,
  // with no history, in a private one of the system's), not held in a DuckDB table (store-spool.ts).
  let ownSpool: string | null = null;
  try {
    const spill = await privateSpill(conn, req.root);
    const spool = spill ?? (ownSpool = mkdtempSync(join(tmpdir(), 'edgelog-export-')));
    await conn.run(`SET TimeZone = 'UTC'`);
    const budget = new WorkBudget(null, () => conn.interrupt());
    await createHistoryViews(conn, { ...req, scope: req.scope, spool }, [req.table], budget);
    // The views already hold only the scope's zone-days (their files and store rows).
    const select = `SELECT * FROM main.${req.table}`;
    if (target.format === 'parquet') return await copyToParquet(conn, select, req.table, target.file);
    return await streamText(conn, select, target);
  } finally {
    closeGuarded(conn);
    if (ownSpool !== null) rmSync(ownSpool, { recursive: true, force: true });
  }
}

async function copyToParquet(
  conn: DuckDBConnection,
  select: string,
  table: HistoryTable,
  file: string,
): Promise<number> {
  // Keeping the rows' order would make DuckDB hold row groups back while its threads finish theirs.
  await conn.run('SET preserve_insertion_order = false');
  const result = await conn.run(
    `COPY (${select}) TO ${sqlStringLiteral(file)} (${parquetOptionsSql(DEFAULT_PARQUET_OPTIONS[table])})`,
  );
  return result.rowsChanged;
}

async function streamText(
  conn: DuckDBConnection,
  select: string,
  target: Extract<ExportTarget, { out: Output }>,
): Promise<number> {
  const result = await conn.stream(select);
  const encoder = ENCODERS[target.format](result.columnNames(), target.encoding);
  let text = encoder.start();
  let count = 0;
  for (
    let chunk = await result.fetchChunk();
    chunk && chunk.rowCount > 0;
    chunk = await result.fetchChunk()
  ) {
    for (const row of chunk.getRows()) text += encoder.row(row.map(sqlValue), count++);
    if (text.length >= CHUNK) {
      await target.out.write(text);
      text = '';
    }
  }
  await target.out.write(text + encoder.end(count));
  return count;
}
