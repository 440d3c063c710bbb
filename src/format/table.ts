// Pure: aligned plain-text tables for terminal output.
import { fitText, padText, safeText, textWidth } from './terminal-text.js';

export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
  /** Right-align (numbers). @defaultValue false */
  right?: boolean;
  /**
   * Free text (an error, a URL) that may be cut to fit the table's maxWidth. When no column says, every
   * left-aligned column may be; right-aligned ones (numbers) never are. @defaultValue false
   */
  flexible?: boolean;
}

export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  return JSON.stringify(value);
}

export interface TableOptions {
  /** Widest a cell may be, in terminal columns; a longer one is cut with an ellipsis. @defaultValue 60 */
  maxCell?: number;
  /**
   * Widest the whole table may be (the terminal's width): the widest flexible columns (see Column) are
   * cut further, never below their header, until it fits — or until they cannot be cut any more.
   * @defaultValue Infinity
   */
  maxWidth?: number;
}

const GAP = 2;

/**
 * Column widths that fit `maxWidth`: the widest cuttable column loses a column at a time until the
 * table fits or every cuttable column is down to its floor.
 */
export function fitWidths(natural: readonly number[], floors: readonly number[], maxWidth: number): number[] {
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, widths.length - 1);
  while (total > maxWidth) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > floors[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) break;
    widths[widest]!--;
    total--;
  }
  return widths;
}

/**
 * Renders rows under a header line. Every cell and header is made safe for a terminal (terminal-text.ts)
 * before it is measured and cut, so an escape is never cut in half; whitespace runs (newlines) in a cell
 * become one space. Columns are aligned by the terminal columns their text takes.
 */
export function formatTable<Row>(
  columns: ReadonlyArray<Column<Row>>,
  rows: readonly Row[],
  options: number | TableOptions = 60,
): string {
  const opts = typeof options === 'number' ? { maxCell: options } : options;
  const maxCell = opts.maxCell ?? 60;
  const headers = columns.map((c) => safeText(c.header));
  // A cell's whole text, cut to maxCell; cut again below if the table must narrow.
  const raw = rows.map((r) => columns.map((c) => cell(c.value(r)).replace(/\s+/g, ' ')));
  let text = raw.map((cells) => cells.map((s) => fitText(s, maxCell)));
  const natural = columns.map((_, i) =>
    Math.max(textWidth(headers[i]!), ...text.map((t) => textWidth(t[i]!))),
  );
  let widths = natural;
  if (opts.maxWidth !== undefined && Number.isFinite(opts.maxWidth)) {
    const named = columns.some((c) => c.flexible);
    const floors = columns.map((c, i) =>
      (named ? c.flexible : !c.right)
        ? Math.min(natural[i]!, Math.max(textWidth(headers[i]!), 4))
        : natural[i]!,
    );
    widths = fitWidths(natural, floors, opts.maxWidth);
    if (widths.some((w, i) => w < natural[i]!)) {
      text = raw.map((cells) => cells.map((s, i) => fitText(s, Math.min(maxCell, widths[i]!))));
    }
  }
  const line = (cells: string[]) =>
    cells
      .map((s, i) => padText(s, widths[i]!, columns[i]!.right))
      .join(' '.repeat(GAP))
      .trimEnd();
  return [line(headers), ...text.map(line)].join('\n');
}

/** 1234567 → "1,234,567". Integers by hand: the first toLocaleString of a process loads ICU's number
 * formatting, some 12 ms of a one-row `edgelog query`. */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Milliseconds as "850ms", "12.3s", "4m05s". */
export function elapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}
