// Writes one part (parts.ts) of a table-zone-day and publishes it: its rows — the store's, page by page as
// JSON lines, and the rows of existing parts (a merge's inputs) — in one COPY by DuckDB to a private
// temporary name in the zone-day's directory, fsync, read back and verified (row count and the key
// checksum, computed independently from the store's key columns as they came and from the inputs' files,
// and from the written file's key columns as DuckDB reads them: key-readback.ts), renamed to the part's
// name (which says its batches and timestamps), and the directory synced. A crash at any point leaves the
// parts as they were, and at most a temporary file no reader matches (layout.ts).
//
// Everything written is its owner's, and the group's to read (file-modes.ts): the temporary files are
// made private before DuckDB fills them (it keeps the mode of a file it overwrites).
import {
  chmodSync,
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { DuckDBBlobValue, DuckDBConnection } from '@duckdb/node-api';
import { HistoryError } from '../errors/index.js';
import { HISTORY_FILE_MODE, makeDirs, PRIVATE_DIR_MODE, syncPath } from '../file-modes.js';
import type { HistoryBytesPage, HistoryPage } from '../store/history-store.js';
import type { HistoryTableShape } from '../store/history-columns.js';
import { KeyChecksum, type KeyPart } from './checksum.js';
import { fileKeyChecksum, KeyLines, keyTextSql } from './key-readback.js';
import { isTempFile, tempFile } from './layout.js';
import { parquetOptionsSql, type ParquetOptions } from './parquet-options.js';
import { partName } from './parts.js';
import { sqlStringLiteral as quote } from './statement-tables.js';

export interface PartInput {
  shape: HistoryTableShape;
  /** The table-zone-day's directory (layout.ts dayDir). */
  dir: string;
  /** The write batches the part covers, [lo, hi). */
  lo: bigint;
  hi: bigint;
  /** Rows from the store, page by page, in the file's columns (history-columns.ts). */
  pages?: AsyncIterable<HistoryPage | HistoryBytesPage>;
  /** Existing Parquet files whose rows go in too (a merge's inputs; the first flush's legacy file). */
  files?: readonly string[];
  /**
   * The file of `files` whose rows are left out where a store row has the same key (the first flush:
   * the legacy data.parquet of a day the store still holds some of). @defaultValue none
   */
  unlessStored?: string;
  parquet: ParquetOptions;
  /** Rows are written in the shape's order (a merge: the day's rows in time order). @defaultValue false */
  sorted?: boolean;
  /**
   * Called after the file verified, right before it is renamed into place: throws to stop the
   * publication (a lease was lost). Also where the fault tests stop the process.
   */
  beforePublish?: () => Promise<void>;
  /** Rows read so far (progress). */
  onRows?: (n: number) => void;
  /** Made (private) if missing: where the connection's DuckDB spills (openDuckDb tempDirectory). */
  scratchDir?: string;
  /** Told the milliseconds each step took (bench/flush-cost.ts). @defaultValue none */
  onStep?: StepTimer;
}

/** The steps of writing a part, as bench/flush-cost.ts reports them. */
export type PartStep =
  | 'store read'
  | 'encoding'
  | 'duckdb ingest'
  | 'parquet write'
  /** One COPY that reads the rows and writes the file. */
  | 'duckdb ingest + parquet write'
  | 'key read-back';
export type StepTimer = (step: PartStep, ms: number) => void;

export interface WrittenPart {
  /** The part's file name in its directory. */
  name: string;
  rows: number;
  bytes: number;
  /** The key checksum of its rows (checksum.ts). */
  checksum: string;
}

/**
 * One file as a table: its own columns only (DuckDB would otherwise add the zone=/day= directories as
 * columns, hive partitioning being detected from the path).
 */
export const readFile = (path: string) => `read_parquet(${quote(path)}, hive_partitioning = false)`;
/** Several files of one shape as one relation (their columns in the same order). */
export const readFiles = (paths: readonly string[]) =>
  `read_parquet([${paths.map(quote).join(', ')}], hive_partitioning = false)`;

/** What DuckDB's JSON reader takes at the least as its largest line (16 MiB: maximum_object_size). */
const JSON_READER_MIN_OBJECT = 16 * 2 ** 20;

/** A temporary file older than this is a dead writer's (no write takes a day): removed by the next. */
const STALE_TEMP_MS = 24 * 3600_000;

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
 * Writes and publishes the part; null when there are no rows at all (no file is made). Memory stays
 * bounded whatever the day's size: the store's rows go through a temporary file of JSON lines, and
 * DuckDB spills to `scratchDir` if a sort needs it.
 */
export async function writePart(duck: DuckDBConnection, input: PartInput): Promise<WrittenPart | null> {
  const { shape, dir } = input;
  try {
    makeDirs(dir);
    removeStaleTemps(dir);
    if (input.scratchDir) makeDirs(input.scratchDir, PRIVATE_DIR_MODE);
  } catch (cause) {
    throw writeError(dir, cause);
  }
  // The temporary files (the day's raw rows among them) live in a directory of their own that only the
  // owner may enter: DuckDB's COPY makes its file anew, as open as the umask lets, and a day directory
  // an earlier edgelog made may be open to others.
  let work: string;
  try {
    work = mkdtempSync(tempFile(dir, `${process.pid}-`));
  } catch (cause) {
    throw writeError(dir, cause);
  }
  const step = (name: PartStep, since: number): number => {
    const now = performance.now();
    input.onStep?.(name, now - since);
    return now;
  };
  const temp = join(work, 'part');
  const lines = join(work, 'rows');
  const kept = join(work, 'kept');
  try {
    const expected = new KeyChecksum();
    let longest = 0;
    let stored = 0;
    if (input.pages) {
      const fd = openSync(lines, 'wx', 0o600);
      try {
        // The keys of byte pages, hashed from their frames as the read-back hashes the file's.
        const keyLines = new KeyLines(expected);
        let t = performance.now();
        for await (const page of input.pages) {
          t = step('store read', t);
          let rows: number;
          if ('keyLines' in page) {
            keyLines.push(page.keyLines);
            keyLines.end();
            rows = expected.count - stored;
            if (rows !== page.rows)
              throw new HistoryError(
                `${shape.table} ${dir}: a page of ${page.rows} rows came with ${rows} keys; nothing was published`,
              );
            writeBytes(fd, page.lines);
            longest = Math.max(longest, page.longestBytes);
          } else {
            for (const key of page.keys) expected.add(key as KeyPart[]);
            // The longest line's UTF-8 bytes: at most three per code unit, and no more than the page's.
            longest = Math.max(longest, Math.min(3 * page.longest, writeAll(fd, page.lines)));
            rows = page.keys.length;
          }
          stored += rows;
          input.onRows?.(rows);
          t = step('encoding', t);
        }
        step('store read', t);
      } finally {
        closeSync(fd);
      }
    }
    const fresh = stored > 0 ? jsonRows(shape, lines, longest) : null;
    const relations: string[] = fresh === null ? [] : [fresh];
    const files: string[] = [];
    for (const file of input.files ?? []) {
      if (file === input.unlessStored && fresh !== null) {
        const rows = await carryOver(duck, shape, file, fresh, kept, expected);
        if (rows > 0) files.push(kept);
        continue;
      }
      await addKeys(duck, shape, readFile(file), expected);
      files.push(file);
    }
    // One scan of every file: a UNION ALL of a scan per file holds a row group of each at once (a 1M-entry
    // Shield day's 17 parts, ~10 MB each, passed DuckDB's 192 MB and the merge failed).
    if (files.length > 0) relations.push(readFiles(files));
    if (expected.count === 0) return null;
    const all = `(${relations.map((r) => `SELECT * FROM ${r}`).join(' UNION ALL ')})`;
    const source = input.sorted ? `(SELECT * FROM ${all} ORDER BY ${input.shape.order.join(', ')})` : all;
    let t = performance.now();
    await duck.run(`COPY ${source} TO ${quote(temp)} (${parquetOptionsSql(input.parquet)})`);
    rmSync(lines, { force: true });
    await syncPath(temp);
    t = step('duckdb ingest + parquet write', t);
    // Read back as a reader will see it: the key checksum of what the file holds (key-readback.ts).
    const keys = join(work, 'keys');
    const found = await fileKeyChecksum(duck, shape, readFile(temp), keys);
    step('key read-back', t);
    if (found !== expected.digest()) {
      throw new HistoryError(
        `${shape.table} ${dir}: the written part did not verify against its rows ` +
          `(file ${found}, rows ${expected.digest()}); nothing was published`,
      );
    }
    const time = await timeRangeOf(duck, shape, temp);
    const name = partName({ lo: input.lo, hi: input.hi, ...(time ? { time } : {}) });
    await input.beforePublish?.();
    chmodSync(temp, HISTORY_FILE_MODE);
    renameSync(temp, join(dir, name));
    await syncPath(dir);
    return { name, rows: expected.count, bytes: statSync(join(dir, name)).size, checksum: expected.digest() };
  } catch (cause) {
    if (cause instanceof HistoryError || !isDiskError(cause)) throw cause;
    throw writeError(dir, cause);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Writes all of `text` at the file's end (a write may take less than it was given); returns its bytes. */
function writeAll(fd: number, text: string): number {
  return writeBytes(fd, Buffer.from(text, 'utf8'));
}

function writeBytes(fd: number, bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
  return bytes.length;
}

/**
 * The rows of `file` the store's rows (`fresh`) lack, written to `part` and added to the expected
 * checksum; returns how many. The first flush carries a legacy file's rows so: a row the store still
 * holds is written once, from the store.
 */
async function carryOver(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  file: string,
  fresh: string,
  part: string,
  expected: KeyChecksum,
): Promise<number> {
  const on = shape.key.map((k) => `old."${k}" = p."${k}"`).join(' AND ');
  await duck.run(
    `COPY (SELECT old.* FROM ${readFile(file)} AS old WHERE NOT EXISTS (SELECT 1 FROM ${fresh} AS p WHERE ${on})) ` +
      `TO ${quote(part)} (FORMAT parquet)`,
  );
  const before = expected.count;
  await addKeys(duck, shape, readFile(part), expected);
  return expected.count - before;
}

/**
 * The least and greatest timestamp of an entry file, read back by DuckDB; null for the quarantine (no
 * timestamp). Entry rows always have one (NOT NULL in both stores).
 */
async function timeRangeOf(
  duck: DuckDBConnection,
  shape: HistoryTableShape,
  file: string,
): Promise<{ min: bigint; max: bigint } | null> {
  if (!shape.columns.some((c) => c.name === 'timestamp')) return null;
  const reader = await duck.runAndReadAll(
    `SELECT min("timestamp"), max("timestamp"), count(*) - count("timestamp") FROM ${readFile(file)}`,
  );
  const [min, max, nulls] = reader.getRows()[0] ?? [];
  if (typeof min !== 'bigint' || typeof max !== 'bigint' || nulls !== 0n)
    throw new HistoryError(`${file}: an entry part without a timestamp on every row`);
  return { min, max };
}

/**
 * The key checksum of a Parquet file, read back by DuckDB (what a reader will see) without writing
 * anything (pruning verifies a part so, even in a history it cannot write). Slower than fileKeyChecksum
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

/**
 * Temporary files of writers that died. Another writer may be at work in the directory (a flush and a
 * merge of the same day): only those older than any write are removed.
 */
function removeStaleTemps(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!isTempFile(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_TEMP_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile: its writer finished.
    }
  }
}

const DISK =
  /ENOSPC|EROFS|EACCES|EPERM|EDQUOT|No space left|Read-only file system|Permission denied|Disk quota/i;

function isDiskError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return DISK.test(text(e?.code)) || DISK.test(text(e?.message));
}

export function writeError(dir: string, cause: unknown): HistoryError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new HistoryError(
    `cannot write the history in ${dir}: ${why} (free space there or make it writable, or set ` +
      'history.path to another directory)',
    { cause },
  );
}
