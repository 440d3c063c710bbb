// Writes one table-zone-day's Parquet file and publishes it: the store's rows appended to DuckDB in
// chunks, COPY to a temporary name beside data.parquet, fsync, read back and verified (row count and the
// key checksum, computed independently from the store's rows as they came), renamed over data.parquet,
// and the directory synced. A crash at any point leaves the old file or the new one, and at most a
// temporary file that no reader matches (layout.ts) and the next compaction of the day removes.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import type { HistoryValue } from '../store/history-store.js';
import { KeyChecksum, type KeyPart } from './checksum.js';
import { keyIndexes, type HistoryTableShape } from '../store/history-columns.js';
import { DATA_FILE, isTempFile, tempFile } from './layout.js';
import { parquetOptionsSql, type ParquetOptions } from './parquet-options.js';
import { removeTimeRangesBut, writeTimeRange, type TimeRange } from './time-range.js';

/** DuckDB's vector size: a data chunk holds at most this many rows. */
const CHUNK_ROWS = 2048;
const STAGING = 'history_rows';

export interface DayFileInput {
  shape: HistoryTableShape;
  /** The table-zone-day's directory (layout.ts dayDir). */
  dir: string;
  /** The store's rows of the day, page by page, in the file's columns and order (columns.ts). */
  pages: AsyncIterable<HistoryValue[][]>;
  parquet: ParquetOptions;
  /**
   * Called after the file verified, right before it is renamed into place: throws to stop the
   * publication (the lease was lost). Also where the fault tests stop the process.
   */
  beforePublish?: () => Promise<void>;
  /** Rows appended so far (progress). */
  onRows?: (n: number) => void;
  /** True when the pages did not all come in file order (they are sorted then). @defaultValue never */
  unsorted?: () => boolean;
  /** Rows per part file (what DuckDB holds in memory at once). @defaultValue 20000 */
  partRows?: number;
  /** Made if missing: where the connection's DuckDB spills (openDuckDb tempDirectory). */
  scratchDir?: string;
}

export interface PublishedFile {
  /** Rows in the file: the store's, and those of the file it replaced that the store no longer held. */
  rows: number;
  /** Of which came from the replaced file (the store's copy of them was pruned). */
  kept: number;
  bytes: number;
  checksum: string;
}

const quote = (path: string) => `'${path.replaceAll("'", "''")}'`;

/**
 * One file as a table: its own columns only (DuckDB would otherwise add the zone=/day= directories as
 * columns, hive partitioning being detected from the path).
 */
export const readFile = (path: string) => `read_parquet(${quote(path)}, hive_partitioning = false)`;

/**
 * Writes and publishes the day's file; null when there are no rows at all (no file is made, and an
 * existing one is left as it is). A file already published for the day is never replaced by one that
 * lacks any of its rows: rows the store no longer holds (pruned) are carried over into the new file.
 *
 * Memory stays bounded whatever the day's size: the rows go through DuckDB `partRows` at a time, each
 * part written to a temporary Parquet file (zstd level 1), and the day's file is then one streaming COPY
 * of the parts in order (DuckDB spills to `scratchDir` if a sort is needed).
 */
export async function publishDayFile(
  duck: DuckDBConnection,
  input: DayFileInput,
): Promise<PublishedFile | null> {
  const { shape, dir } = input;
  const published = join(dir, DATA_FILE);
  try {
    await mkdir(dir, { recursive: true });
    removeTempFiles(dir);
    if (input.scratchDir) await mkdir(input.scratchDir, { recursive: true });
  } catch (cause) {
    throw writeError(dir, cause);
  }
  const { DuckDBDataChunk, BIGINT, VARCHAR } = await import('@duckdb/node-api');
  const types: DuckDBType[] = shape.columns.map((c) => (c.kind === 'int' ? BIGINT : VARCHAR));
  const columnsSql = shape.columns.map((c) => `"${c.name}" ${c.kind === 'int' ? 'BIGINT' : 'VARCHAR'}`);
  const token = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const temp = tempFile(dir, token);
  const parts: string[] = [];
  const partRows = input.partRows ?? 20_000;
  try {
    const expected = new KeyChecksum();
    const keys = keyIndexes(shape);
    const ints = shape.columns.map((c) => c.kind === 'int');
    let staged = 0;
    const chunk = DuckDBDataChunk.create(types);
    let appender = await stage(duck, columnsSql);
    // The staged rows become the next part file, and the staging table starts empty again.
    const cut = async () => {
      appender.closeSync();
      if (staged > 0) {
        const part = tempFile(dir, `${token}.part-${String(parts.length).padStart(5, '0')}`);
        parts.push(part);
        await duck.run(
          `COPY ${STAGING} TO ${quote(part)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)`,
        );
      }
      staged = 0;
      appender = await stage(duck, columnsSql);
    };
    try {
      for await (const page of input.pages) {
        for (let start = 0; start < page.length; start += CHUNK_ROWS) {
          const rows = page.slice(start, start + CHUNK_ROWS);
          const columns: DuckDBValue[][] = shape.columns.map(() => new Array<DuckDBValue>(rows.length));
          for (let r = 0; r < rows.length; r++) {
            const row = rows[r]!;
            expected.add(keys.map((k) => row[k] as KeyPart));
            for (let c = 0; c < ints.length; c++) {
              const v = row[c] ?? null;
              columns[c]![r] = ints[c] && typeof v === 'number' ? BigInt(v) : v;
            }
          }
          // One chunk, reused: a chunk's native memory goes only when the garbage collector finalises
          // its wrapper, and a new one per 2,048 rows piled up hundreds of MB before it did.
          chunk.reset();
          chunk.setColumns(columns);
          appender.appendDataChunk(chunk);
          staged += rows.length;
        }
        input.onRows?.(page.length);
        if (staged >= partRows) await cut();
      }
      await cut();
    } finally {
      appender.closeSync();
    }
    const kept = await carryOver(duck, shape, published, parts, tempFile(dir, `${token}.kept`), expected);
    if (kept.part) parts.push(kept.part);
    if (expected.count === 0) return null;
    // The store's pages come in file order; rows carried over from the old file need a sort.
    const all = `read_parquet([${parts.map(quote).join(', ')}], hive_partitioning = false)`;
    const source =
      kept.rows > 0 || input.unsorted?.() === true
        ? `(SELECT * FROM ${all} ORDER BY ${shape.order.join(', ')})`
        : `(SELECT * FROM ${all})`;
    await duck.run(`COPY ${source} TO ${quote(temp)} (${parquetOptionsSql(input.parquet)})`);
    syncFile(temp);
    const found = await checksumOf(duck, shape, temp);
    if (found !== expected.digest()) {
      throw new HistoryError(
        `${shape.table} ${dir}: the written file did not verify against the store ` +
          `(file ${found}, store ${expected.digest()}); nothing was published`,
      );
    }
    const range = await timeRangeOf(duck, shape, temp);
    await input.beforePublish?.();
    // The file's timestamp marker first (time-range.ts): some marker covers data.parquet at all times.
    const marker = range === null ? null : writeTimeRange(dir, range);
    if (marker === null) removeTimeRangesBut(dir, null);
    syncFile(dir);
    renameSync(temp, published);
    syncFile(dir);
    removeTimeRangesBut(dir, marker);
    return {
      rows: expected.count,
      kept: kept.rows,
      bytes: statSync(published).size,
      checksum: expected.digest(),
    };
  } catch (cause) {
    rmSync(temp, { force: true });
    if (cause instanceof HistoryError || !isDiskError(cause)) throw cause;
    throw writeError(dir, cause);
  } finally {
    for (const part of parts) rmSync(part, { force: true });
    await duck.run(`DROP TABLE IF EXISTS ${STAGING}`);
  }
}

async function stage(duck: DuckDBConnection, columnsSql: readonly string[]) {
  await duck.run(`CREATE OR REPLACE TABLE ${STAGING} (${columnsSql.join(', ')})`);
  return duck.createAppender(STAGING);
}

/**
 * Rows of the published file that the parts lack (their store rows were pruned) are written to one more
 * part, and added to the expected checksum: the new file holds them too.
 */
async function carryOver(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  published: string,
  parts: readonly string[],
  part: string,
  expected: KeyChecksum,
): Promise<{ rows: number; part: string | null }> {
  if (!exists(published)) return { rows: 0, part: null };
  const on = shape.key.map((k) => `old."${k}" = p."${k}"`).join(' AND ');
  const fresh =
    parts.length === 0
      ? ''
      : `WHERE NOT EXISTS (SELECT 1 FROM read_parquet([${parts.map(quote).join(', ')}], hive_partitioning = false) AS p WHERE ${on})`;
  await duck.run(
    `COPY (SELECT old.* FROM ${readFile(published)} AS old ${fresh}) TO ${quote(part)} (FORMAT parquet)`,
  );
  const before = expected.count;
  await eachKey(duck, shape, readFile(part), (keyParts) => expected.add(keyParts));
  const rows = expected.count - before;
  if (rows > 0) return { rows, part };
  rmSync(part, { force: true });
  return { rows: 0, part: null };
}

/**
 * The least and greatest timestamp of an entry file, read back by DuckDB; null for the quarantine (no
 * timestamp) or a file with a NULL timestamp (no range would cover it).
 */
async function timeRangeOf(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  file: string,
): Promise<TimeRange | null> {
  if (!shape.columns.some((c) => c.name === 'timestamp')) return null;
  const reader = await duck.runAndReadAll(
    `SELECT min("timestamp"), max("timestamp"), count(*) - count("timestamp") FROM ${readFile(file)}`,
  );
  const [min, max, nulls] = reader.getRows()[0] ?? [];
  if (typeof min !== 'bigint' || typeof max !== 'bigint' || nulls !== 0n) return null;
  return { min, max };
}

/** The key checksum of a Parquet file, read back by DuckDB (what a reader will see). */
export async function checksumOf(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  file: string,
): Promise<string> {
  const sum = new KeyChecksum();
  await eachKey(duck, shape, readFile(file), (parts) => sum.add(parts));
  return sum.digest();
}

async function eachKey(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  from: string,
  visit: (parts: KeyPart[]) => void,
): Promise<void> {
  const cols = shape.key.map((k) => `"${k}"`).join(', ');
  const result = await duck.stream(`SELECT ${cols} FROM ${from}`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (const row of chunk.getRows()) visit(row as KeyPart[]);
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** fsync of a file or a directory (a rename is durable once its directory is synced). */
function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Temporary files of writers that died (the day's lease is this writer's: none is in use). */
function removeTempFiles(dir: string): void {
  for (const name of readdirSync(dir)) if (isTempFile(name)) rmSync(join(dir, name), { force: true });
}

const DISK =
  /ENOSPC|EROFS|EACCES|EPERM|EDQUOT|No space left|Read-only file system|Permission denied|Disk quota/i;

function isDiskError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return DISK.test(text(e?.code)) || DISK.test(text(e?.message));
}

function writeError(dir: string, cause: unknown): HistoryError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new HistoryError(
    `cannot write the history in ${dir}: ${why} (free space there or make it writable, or set ` +
      'history.path to another directory, or to null to keep no history)',
    { cause },
  );
}
