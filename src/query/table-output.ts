// Pure: the `table` format of `edgelog query`, an aligned table of the first rows and a footer.
import { formatTable, thousands, type Column } from '../format/table.js';

const isNumber = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';

/** An ISO-8601 day or time, as the archive's dialect writes `time`, `log_date` and hours. */
const TIME_TEXT = /^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?)?$/;
const isTimeText = (v: unknown) => typeof v === 'string' && TIME_TEXT.test(v);

/** How a NULL is shown, apart from the empty text (shown as nothing). */
export const NULL_CELL = 'NULL';

/**
 * Cells longer than this are cut with an ellipsis (unless wide); csv, ndjson and json carry the whole
 * value. Every cell is escaped for the terminal (format/table.ts).
 */
export const MAX_CELL = 100;

/**
 * Renders `rows` (the first rows of the result) under the column names. `more`: the result had rows
 * beyond them (how many is not known: the query stopped there). Columns whose shown values are all numbers (or NULL) are right-aligned;
 * whitespace runs (newlines) become one space; NULL is shown as NULL, the empty text as nothing; to fit
 * the terminal, free text is cut, never a number or an ISO day or time.
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
  const cols: Array<Column<readonly unknown[]>> = columns.map((header, i) => {
    const right = rows.some((r) => isNumber(r[i])) && rows.every((r) => r[i] === null || isNumber(r[i]));
    return {
      header,
      value: (row) => (row[i] === null ? NULL_CELL : row[i]),
      right,
      // A time or day cut in the middle (`2026-11-27T00:0…`) tells nothing: only free text is cut.
      flexible: !right && !rows.every((r) => r[i] === null || isTimeText(r[i])),
    };
  });
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
