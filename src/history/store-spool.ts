// The store's rows as a file of JSON lines, and that file as a relation DuckDB scans: what an export reads
// of the store instead of a DuckDB table (store-append.ts). A scan of the file holds a buffer of it; a
// table holds every row, and more than DuckDB counts: the 49,999 rows of a Shield day's tail appended to
// one took the process from 166 to 299 MiB while DuckDB counted 43 MiB (docs/HISTORY.md, "Memory and
// spill"). Each line is a JSON array of the row's values as text (or null), which JSON escapes whatever
// they hold, cast back to the columns' types as DuckDB reads them.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { ArchiveColumnType } from '../store/archive-tables.js';
import type { QueryStore, QueryValue } from '../store/store.js';
import { PRIVATE_FILE_MODE } from '../file-modes.js';
import { sqlStringLiteral } from './statement-tables.js';
import { storeValue } from './store-value.js';
import type { WorkBudget } from './work-budget.js';

/**
 * Rows read from the store and written at a time. What the JS heap grows to while reading stays in the
 * process for the rest of the export: with 2,048 (store-append.ts's chunk) a 1,000,000-entry Shield day
 * with a 49,999-row tail exported at 251 and 252 MiB peak, with 256 at 210 and 223 (docs/MEASUREMENTS.md).
 */
const SPOOL_ROWS = 256;

/** What DuckDB's JSON reader takes at the least as its largest line (its maximum_object_size, 16 MiB). */
const MIN_OBJECT_BYTES = 16 * 2 ** 20;

export interface Spool {
  /** The file: in a directory only the owner may enter (duckdb-guard.ts privateSpill); made or emptied. */
  file: string;
  /** The columns in the order the statement selects them, with their types. */
  columns: ReadonlyArray<readonly [string, ArchiveColumnType]>;
}

export interface Spooled extends Spool {
  rows: number;
  /** The longest line's UTF-8 bytes (the JSON reader refuses a line longer than it was told). */
  longest: number;
}

/** Writes the rows `sql` reads from the store to `spool.file`, one JSON line each. */
export async function spoolStoreRows(
  store: QueryStore,
  spool: Spool,
  sql: string,
  budget: WorkBudget,
): Promise<Spooled> {
  const kinds = spool.columns.map(([, t]) => t);
  let rows = 0;
  let longest = 0;
  // 'w': a read the watermark made start over writes the file again.
  const fd = openSync(spool.file, 'w', PRIVATE_FILE_MODE);
  try {
    await store.readOnly(sql, { timeoutMs: budget.remaining() }, async (cursor) => {
      for (
        let batch = await cursor.next(SPOOL_ROWS);
        batch.length > 0;
        batch = await cursor.next(SPOOL_ROWS)
      ) {
        budget.check();
        let text = '';
        for (const row of batch) {
          const line = JSON.stringify(row.map((v, i) => storeText(v, kinds[i]!)));
          longest = Math.max(longest, Buffer.byteLength(line));
          text += `${line}\n`;
        }
        writeAll(fd, Buffer.from(text, 'utf8'));
        rows += batch.length;
      }
    });
  } finally {
    closeSync(fd);
  }
  return { ...spool, rows, longest };
}

/** A store value as the text DuckDB casts back to its column's type (the value checked as the table's). */
function storeText(value: QueryValue, type: ArchiveColumnType): string | null {
  const v = storeValue(value, type);
  return v === null ? null : String(v);
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
}

/** Pure: the spooled rows as a relation with the columns' names and types. */
export function spooledRows(s: Spooled): string {
  const select = s.columns.map(([n, t], i) => `v[${i + 1}]::${t} AS "${n}"`).join(', ');
  const maxObject = Math.max(MIN_OBJECT_BYTES, s.longest);
  return (
    `(SELECT ${select} FROM read_json(${sqlStringLiteral(s.file)}, format = 'newline_delimited', ` +
    `records = false, columns = {'v': 'VARCHAR[]'}, maximum_object_size = ${maxObject}))`
  );
}
