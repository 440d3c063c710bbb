// Pure: the `table` format of `edgelog query`, an aligned table of the first rows and a footer.
import { formatTable, thousands, type Column } from '../format/table.js';

const isNumber = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';

/**
 * Cells longer than this are cut with an ellipsis (unless wide); csv, ndjson and json carry the whole
 * value. Every cell is escaped for the terminal (format/table.ts).
 */
export const MAX_CELL = 100;

/**
 * Renders `rows` (the first rows of the result) under the column names. `more`: the result had rows
 * beyond them (how many is not known: the query stopped there). Columns whose shown values are all numbers (or NULL) are right-aligned;
 * whitespace runs (newlines) become one space.
 */
export interface QueryTableOptions {
  /** Columns of the terminal: the table is narrowed to fit (cells cut). @defaultValue no bound */
  width?: number | undefined;
  /** Every cell whole, however wide (`--wide`). @defaultValue false */
  wide?: boolean | undefined;
}

export function queryTable(
  columns: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
  more: boolean,
  opts: QueryTableOptions = {},
) {
  const cols: Array<Column<readonly unknown[]>> = columns.map((header, i) => ({
    header,
    value: (row) => row[i],
    right: rows.some((r) => isNumber(r[i])) && rows.every((r) => r[i] === null || isNumber(r[i])),
  }));
  const table = formatTable(
    cols,
    rows,
    opts.wide
      ? { maxCell: Infinity }
      : { maxCell: MAX_CELL, ...(opts.width ? { maxWidth: opts.width } : {}) },
  );
  return `${table}\n${footer(rows.length, more)}\n`;
}

export function footer(shown: number, more: boolean): string {
  const rows = `${thousands(shown)} ${shown === 1 ? 'row' : 'rows'}`;
  if (!more) return `(${rows})`;
  return `(the first ${rows} shown; there are more: raise --limit, or use --format csv|ndjson|json for all)`;
}
