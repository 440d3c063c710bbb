// Pure: aligned plain-text tables for terminal output.

export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
  /** Right-align (numbers). @defaultValue false */
  right?: boolean;
}

export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  return JSON.stringify(value);
}

/** Renders rows under a header line; cells wider than `maxWidth` are cut with an ellipsis. */
export function formatTable<Row>(
  columns: ReadonlyArray<Column<Row>>,
  rows: readonly Row[],
  maxWidth = 60,
): string {
  const text = rows.map((r) =>
    columns.map((c) => {
      const s = cell(c.value(r)).replace(/\s+/g, ' ');
      return s.length > maxWidth ? `${s.slice(0, maxWidth - 1)}…` : s;
    }),
  );
  const widths = columns.map((c, i) => Math.max(c.header.length, ...text.map((t) => t[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((s, i) => (columns[i]!.right ? s.padStart(widths[i]!) : s.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...text.map(line)].join('\n');
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
