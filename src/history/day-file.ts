// Writes one table-zone-day's Parquet file and publishes it: the store's rows (JSON lines) written to a
// temporary file, one COPY by DuckDB to a temporary name beside data.parquet, fsync, read back and
// verified (row count and the key checksum, computed independently from the store's key columns as they
// came, and from the file's key columns as DuckDB reads them: key-readback.ts), renamed over data.parquet,
// and the directory synced. A crash at any point leaves the old file or the new one, and at most a
// temporary file that no reader matches (layout.ts) and the next compaction of the day removes.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBBlobValue, DuckDBConnection } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import type { HistoryPage } from '../store/history-store.js';
import { KeyChecksum, type KeyPart } from './checksum.js';
import type { HistoryTableShape } from '../store/history-columns.js';
import { fileKeyChecksum, keyTextSql } from './key-readback.js';
import { DATA_FILE, isTempFile, tempFile } from './layout.js';
import { parquetOptionsSql, type ParquetOptions } from './parquet-options.js';
import { removeTimeRangesBut, writeTimeRange, type TimeRange } from './time-range.js';
import { sqlStringLiteral as quote } from './statement-tables.js';

export interface DayFileInput {
  shape: HistoryTableShape;
  /** The table-zone-day's directory (layout.ts dayDir). */
  dir: string;
  /** The store's rows of the day, page by page, in the file's columns and order (columns.ts). */
  pages: AsyncIterable<HistoryPage>;
  parquet: ParquetOptions;
  /**
   * Called after the file verified, right before it is renamed into place: throws to stop the
   * publication (the lease was lost). Also where the fault tests stop the process.
   */
  beforePublish?: () => Promise<void>;
  /** Rows read so far (progress). */
  onRows?: (n: number) => void;
  /** True when the pages did not all come in file order (they are sorted then). @defaultValue never */
  unsorted?: () => boolean;
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

/**
 * One file as a table: its own columns only (DuckDB would otherwise add the zone=/day= directories as
 * columns, hive partitioning being detected from the path).
 */
export const readFile = (path: string) => `read_parquet(${quote(path)}, hive_partitioning = false)`;

/** What DuckDB's JSON reader takes at the least as its largest line (16 MiB: maximum_object_size). */
const JSON_READER_MIN_OBJECT = 16 * 2 ** 20;

/**
 * The rows of a JSON-lines file (HistoryPage lines) as a relation with the shape's columns and types:
 * each line a JSON array, read as a list of text (a JSON number's text is its digits, every one) and each
 * element cast to its column's type. `longest`: at least the longest line's UTF-8 bytes, so that a row of
 * any size is read (DuckDB's reader refuses a line longer than twice its maximum_object_size).
 */
export function jsonRows(shape: HistoryTableShape, path: string, longest: number): string {
  const select = shape.columns.map(
    (c, i) => `v[${i + 1}]${c.kind === 'int' ? '::BIGINT' : ''} AS "${c.name}"`,
  );
  const maxObject = Math.max(JSON_READER_MIN_OBJECT, longest);
  return (
    `(SELECT ${select.join(', ')} FROM read_json(${quote(path)}, format = 'newline_delimited', ` +
    `records = false, columns = {'v': 'VARCHAR[]'}, maximum_object_size = ${maxObject}))`
  );
}

/**
 * Writes and publishes the day's file; null when there are no rows at all (no file is made, and an
 * existing one is left as it is). A file already published for the day is never replaced by one that
 * lacks any of its rows: rows the store no longer holds (pruned) are carried over into the new file.
 *
 * Each row is encoded once: the store's pages (JSON lines, HistoryPage) are appended to a temporary file
 * beside the day's file, and the day's file is one streaming COPY that DuckDB parses them in (it spills
 * to `scratchDir` if a sort is needed). Memory stays bounded whatever the day's size; the disk holds the
 * lines (about the raw API JSON's size) until the file is published.
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
  const token = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const temp = tempFile(dir, token);
  const lines = tempFile(dir, `${token}.rows`);
  const kept = { rows: 0, part: null as string | null };
  try {
    const expected = new KeyChecksum();
    let longest = 0;
    const fd = openSync(lines, 'wx');
    try {
      for await (const page of input.pages) {
        for (const key of page.keys) expected.add(key as KeyPart[]);
        // The longest line's UTF-8 bytes: at most three per code unit, and no more than the page's.
        longest = Math.max(longest, Math.min(3 * page.longest, writeAll(fd, page.lines)));
        input.onRows?.(page.keys.length);
      }
    } finally {
      closeSync(fd);
    }
    const fresh = expected.count > 0 ? jsonRows(shape, lines, longest) : null;
    const keptPart = tempFile(dir, `${token}.kept`);
    Object.assign(kept, await carryOver(duck, shape, published, fresh, keptPart, expected));
    if (expected.count === 0) return null;
    // The store's pages come in file order; rows carried over from the old file need a sort.
    const relations = [fresh, kept.part === null ? null : readFile(kept.part)].filter((r) => r !== null);
    const all = `(${relations.map((r) => `SELECT * FROM ${r}`).join(' UNION ALL ')})`;
    const source =
      kept.rows > 0 || input.unsorted?.() === true
        ? `(SELECT * FROM ${all} ORDER BY ${shape.order.join(', ')})`
        : all;
    await duck.run(`COPY ${source} TO ${quote(temp)} (${parquetOptionsSql(input.parquet)})`);
    rmSync(lines, { force: true });
    syncFile(temp);
    // Read back as a reader will see it: the key checksum of what the file holds (key-readback.ts).
    const found = await fileKeyChecksum(duck, shape, readFile(temp), tempFile(dir, `${token}.keys`));
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
    rmSync(lines, { force: true });
    if (kept.part !== null) rmSync(kept.part, { force: true });
  }
}

/** Writes all of `text` at the file's end (a write may take less than it was given); returns its bytes. */
function writeAll(fd: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
  return bytes.length;
}

/**
 * Rows of the published file that the store's rows (`fresh`, null when there are none) lack (their store
 * rows were pruned) are written to a part file, and added to the expected checksum: the new file holds
 * them too.
 */
async function carryOver(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  published: string,
  fresh: string | null,
  part: string,
  expected: KeyChecksum,
): Promise<{ rows: number; part: string | null }> {
  if (!exists(published)) return { rows: 0, part: null };
  const on = shape.key.map((k) => `old."${k}" = p."${k}"`).join(' AND ');
  const missing = fresh === null ? '' : `WHERE NOT EXISTS (SELECT 1 FROM ${fresh} AS p WHERE ${on})`;
  await duck.run(
    `COPY (SELECT old.* FROM ${readFile(published)} AS old ${missing}) TO ${quote(part)} (FORMAT parquet)`,
  );
  const before = expected.count;
  await addKeys(duck, shape, readFile(part), expected);
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

/**
 * The key checksum of a Parquet file, read back by DuckDB (what a reader will see) without writing
 * anything (pruning verifies a file so, even in a history it cannot write). Slower than fileKeyChecksum
 * (key-readback.ts), the same function over the same text: each key's text as DuckDB makes it for the key
 * file (keyTextSql), fetched as its UTF-8 bytes (encode; a CAST to BLOB would read backslash escapes in
 * it), so the two read-backs hash one thing, whatever the client's text decoding does.
 */
export async function checksumOf(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  file: string,
): Promise<string> {
  const sum = new KeyChecksum();
  await addKeys(duck, shape, readFile(file), sum);
  return sum.digest();
}

async function addKeys(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  from: string,
  sum: KeyChecksum,
): Promise<void> {
  const result = await duck.stream(`SELECT encode(${keyTextSql(shape)}) FROM ${from}`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    chunk.visitColumnValues(0, (value) => {
      const { bytes } = value as DuckDBBlobValue;
      sum.addUtf8(bytes, 0, bytes.length);
    });
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
