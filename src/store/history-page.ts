// Pure: the select list of a history page (history-store.ts HistoryPage) and the page made from its rows,
// alike on both stores: the shape's key columns, then the row as one JSON array text in the file's columns,
// built by the store's own function (SQLite json_array, PostgreSQL json_build_array); and a flush's page,
// which both stores give as one row of bytes (BytesPageRow).
import type { HistoryTableShape } from './history-columns.js';
import type { FlushDay, FlushDayRows, FlushPage, HistoryPage, HistoryValue } from './history-store.js';

/** `key columns…, <jsonArray>(file columns…)` for `shape`. */
export function pageColumns(shape: HistoryTableShape, jsonArray: (columns: string) => string): string {
  const columns = shape.columns.map((c) => c.name).join(', ');
  return `${shape.key.join(', ')}, ${jsonArray(columns)}`;
}

/** The page of rows selected by pageColumns: each row's last value is its JSON text, the rest its key. */
export function historyPage(rows: HistoryValue[][]): HistoryPage {
  let lines = '';
  let longest = 0;
  for (const row of rows) {
    const line = row.pop() as string;
    if (line.length > longest) longest = line.length;
    lines += `${line}\n`;
  }
  return { keys: rows, lines, longest };
}

/** The zone-days of `[zone, day, source?]` rows. */
export function flushDays(rows: readonly HistoryValue[][]): FlushDay[] {
  return rows.map(([zone, day, source]) => ({
    zone: Number(zone),
    day: String(day),
    ...(source === 'origin' || source === 'shield' ? { source } : {}),
  }));
}

/** The zone-days of `[count, zone, day, source?]` rows, with their counts. */
export function flushDayRows(rows: readonly HistoryValue[][]): FlushDayRows[] {
  return rows.map(([n, ...day]) => ({ ...flushDays([day])[0]!, rows: Number(n) }));
}

/**
 * A page as one row of the store's (sqlite/flush.ts and postgres/flush.ts flushPageSql): its count, its
 * last (batch, id) as their zero-padded 20 digits each, the longest line's bytes, its JSON lines and its
 * framed keys as bytes. Counts come as the driver gives them (a bigint, or PostgreSQL's text).
 */
export type BytesPageRow = [
  rows: bigint | number | string,
  last: string | null,
  longest: bigint | number | string | null,
  lines: Uint8Array | null,
  keyLines: Uint8Array | null,
];

const NO_BYTES = new Uint8Array(0);

/** The page of a BytesPageRow. */
export function bytesPage([rows, last, longest, lines, keyLines]: BytesPageRow): FlushPage {
  return {
    rows: Number(rows),
    lines: lines ?? NO_BYTES,
    keyLines: keyLines ?? NO_BYTES,
    longestBytes: Number(longest ?? 0),
    last: last === null ? null : [BigInt(last.slice(0, 20)), BigInt(last.slice(20))],
  };
}
