// Pure: the columns of each history file, in file order (the history contract: every column of the store
// table but `id` and the generated `time`, same names; INTEGER → BIGINT, TEXT → VARCHAR), the columns that
// key a row, and the order rows are written in. Both stores read a day's rows in exactly these columns.
// The entry tables' columns are entry-tables.ts's, the one list the stores write by.
import {
  ORIGIN_TABLE,
  SHIELD_TABLE,
  type ColumnKind,
  type EntryTable,
  type FileColumn,
} from './entry-tables.js';

export type { ColumnKind, FileColumn };

/** The tables the history keeps (history/layout.ts places their files). */
export const HISTORY_TABLES = ['origin_error_logs', 'shield_event_logs', 'quarantined_entries'] as const;
export type HistoryTable = (typeof HISTORY_TABLES)[number];
export type HistorySource = 'origin' | 'shield';

export interface HistoryTableShape {
  table: HistoryTable;
  columns: readonly FileColumn[];
  /** The zone column (quarantined_entries: zone_id, with `source` beside it). */
  zoneColumn: string;
  /** The columns that identify a row (the store's unique key), which the checksum covers. */
  key: readonly string[];
  /** The order of the rows in the file (the store reads them in this order). */
  order: readonly string[];
}

const col = (kind: ColumnKind) => (name: string) => ({ name, kind });
const int = col('int');
const text = col('text');

/** An entry table's file: its columns and key as the stores keep them, rows in time order. */
const entryFile = (t: EntryTable): HistoryTableShape => ({
  table: t.table,
  columns: t.fileColumns,
  zoneColumn: t.zoneColumn,
  key: t.key,
  order: ['timestamp', 'log_id'],
});

export const ORIGIN_SHAPE: HistoryTableShape = entryFile(ORIGIN_TABLE);
export const SHIELD_SHAPE: HistoryTableShape = entryFile(SHIELD_TABLE);

export const QUARANTINE_SHAPE: HistoryTableShape = {
  table: 'quarantined_entries',
  columns: [
    text('source'),
    int('zone_id'),
    text('log_date'),
    text('raw'),
    text('raw_hash'),
    text('reason'),
    int('page'),
    int('position'),
    int('first_seen_at'),
  ],
  zoneColumn: 'zone_id',
  key: ['source', 'zone_id', 'log_date', 'page', 'position', 'raw_hash'],
  order: ['page', 'position', 'raw_hash'],
};

export const entryShape = (source: HistorySource): HistoryTableShape =>
  source === 'origin' ? ORIGIN_SHAPE : SHIELD_SHAPE;

/** Where each key column sits among the file columns. */
export function keyIndexes(shape: HistoryTableShape): number[] {
  return shape.key.map((k) => {
    const i = shape.columns.findIndex((c) => c.name === k);
    if (i < 0) throw new TypeError(`${shape.table}: key column ${k} is not a file column`);
    return i;
  });
}

// --- The same shapes as the query side reads them --------------------------------------------------------

export type HistoryColumnType = 'BIGINT' | 'VARCHAR';

export interface HistoryTableColumns {
  /** Column name → DuckDB type, in file order. */
  columns: ReadonlyArray<readonly [name: string, type: HistoryColumnType]>;
  /** The column holding the zone id (the `zone=` of a file's path). */
  zoneColumn: string;
  /** The quarantine holds both sources; its `source` column is the `source=` of a file's path. */
  sourceColumn?: string;
  /** The entry tables have `time` computed from `timestamp` on read. */
  timeFrom?: string;
}

const asRead = (
  shape: HistoryTableShape,
  extra: Pick<HistoryTableColumns, 'sourceColumn' | 'timeFrom'>,
): HistoryTableColumns => ({
  columns: shape.columns.map((c) => [c.name, c.kind === 'int' ? 'BIGINT' : 'VARCHAR'] as const),
  zoneColumn: shape.zoneColumn,
  ...extra,
});

export const HISTORY_COLUMNS: Readonly<Record<HistoryTable, HistoryTableColumns>> = {
  origin_error_logs: asRead(ORIGIN_SHAPE, { timeFrom: 'timestamp' }),
  shield_event_logs: asRead(SHIELD_SHAPE, { timeFrom: 'timestamp' }),
  quarantined_entries: asRead(QUARANTINE_SHAPE, { sourceColumn: 'source' }),
};

export const HISTORY_SOURCES: readonly HistorySource[] = ['origin', 'shield'];
