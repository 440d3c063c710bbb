// Pure: the select list of a history page (history-store.ts HistoryPage) and the page made from its rows,
// alike on both stores: the shape's key columns, then the row as one JSON array text in the file's columns,
// built by the store's own function (SQLite json_array, PostgreSQL json_build_array).
import type { HistoryTableShape } from './history-columns.js';
import type {
  FlushCursor,
  FlushDay,
  FlushDayRows,
  FlushPage,
  HistoryPage,
  HistoryValue,
} from './history-store.js';

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

/** The page of rows selected by `batch, id, pageColumns`: the last row's (batch, id) is its cursor. */
export function flushPage(rows: HistoryValue[][]): FlushPage {
  let last: FlushCursor | null = null;
  for (const row of rows) {
    const [batch, id] = row.splice(0, 2);
    last = [BigInt(batch as string | number | bigint), BigInt(id as string | number | bigint)];
  }
  return { ...historyPage(rows), rows: rows.length, last };
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
