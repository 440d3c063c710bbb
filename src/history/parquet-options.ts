// Pure: how history files are encoded, per table. zstd at level 6 with Parquet's V2 pages (delta and
// byte-stream-split encodings) measured smallest among the settings tried on simulator data (docs/HISTORY.md,
// Figures). Shield's files take level 1: writing them is most of a compaction's DuckDB time, and level 1
// halves it for 8% more bytes, still well under the gzip of the raw API JSON (0.87×); origin's stay at 6
// (level 1 put them at the gzip's size: 38.65 against 38.7 B/entry). Shield's rows are wide (~800 bytes
// as JSON): row groups of 10,240 of them, not 30,720, take ~30 MiB off what the writer holds (docs/HISTORY.md,
// "Memory and spill") for 1% more bytes.
import type { HistoryTable } from './layout.js';

export interface ParquetOptions {
  /** zstd level, 1 (fastest) to 22 (smallest). @defaultValue 6 */
  zstdLevel: number;
  /** Parquet format version of the data pages. @defaultValue 'V2' */
  version: 'V1' | 'V2';
  /**
   * Rows per row group (what a reader skips by its statistics; the writer holds one in memory per
   * thread: a quarter of DuckDB's default keeps a day of wide Shield rows within the memory limit).
   * @defaultValue 30720
   */
  rowGroupSize: number;
}

const SMALLEST: ParquetOptions = { zstdLevel: 6, version: 'V2', rowGroupSize: 30_720 };

/** Each table's options. */
export type HistoryParquetOptions = Readonly<Record<HistoryTable, ParquetOptions>>;

export const DEFAULT_PARQUET_OPTIONS: HistoryParquetOptions = {
  shield_event_logs: { ...SMALLEST, zstdLevel: 1, rowGroupSize: 10_240 },
  origin_error_logs: SMALLEST,
  quarantined_entries: SMALLEST,
};

/** The COPY … TO options; the values are checked, as they go into SQL text. */
export function parquetOptionsSql(o: ParquetOptions): string {
  if (!Number.isInteger(o.zstdLevel) || o.zstdLevel < 1 || o.zstdLevel > 22)
    throw new RangeError(`not a zstd level: ${o.zstdLevel}`);
  if (o.version !== 'V1' && o.version !== 'V2')
    throw new RangeError(`not a Parquet version: ${String(o.version)}`);
  if (!Number.isInteger(o.rowGroupSize) || o.rowGroupSize < 1024)
    throw new RangeError(`not a row group size: ${o.rowGroupSize}`);
  return [
    'FORMAT parquet',
    'COMPRESSION zstd',
    `COMPRESSION_LEVEL ${o.zstdLevel}`,
    `PARQUET_VERSION ${o.version}`,
    `ROW_GROUP_SIZE ${o.rowGroupSize}`,
  ].join(', ');
}
