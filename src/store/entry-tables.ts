// Pure: the one description of each source's entry table and hourly rollup, named alike on SQLite and
// PostgreSQL and in the Parquet history: its columns (names, kinds, which batch field fills each), its
// key, its rollup's keys. The stores' writers and reads, migrate-store and the history's file columns
// (history-columns.ts) all derive from it.
import type { LogSource } from './ledger-types.js';
import { ORIGIN_FIELDS, SHIELD_FIELDS, type OriginBatch, type ShieldBatch } from './rows.js';
import { rollupValue } from '../values/storable.js';

export type AnyBatch = OriginBatch | ShieldBatch;
type Value = string | number | null;

/** A column's kind in every engine: int (INTEGER, bigint, BIGINT) or text (TEXT, text, VARCHAR). */
export type ColumnKind = 'int' | 'text';

export interface FileColumn {
  name: string;
  kind: ColumnKind;
}

export interface EntryTable {
  source: LogSource;
  table: 'origin_error_logs' | 'shield_event_logs';
  zoneColumn: string;
  /**
   * Every stored column (all but `id` and the generated `time`) in the history files' order: the zone,
   * log_id, log_date, then the other batch fields in batch order.
   */
  fileColumns: readonly FileColumn[];
  /** The unique key: zone, timestamp, log_id. */
  key: readonly string[];
  /** The entry columns after the zone and log_date, in batch-field order (what a writer fills). */
  columns: readonly string[];
  /** Their SQL types (for the staging table). */
  types: readonly string[];
  /** The batch field of each column. */
  fields: readonly string[];
  rollup: {
    table: string;
    /** The rollup key columns after zone and hour; each counts the entry column of its name. */
    keys: readonly string[];
    keyTypes: readonly string[];
    /** What stands for NULL in each key ('' or 0, to fit the key). */
    empty: readonly Value[];
    /** Each key's value from row `i` of a batch (storable.ts rollupValue). */
    fromBatch: (b: AnyBatch, i: number) => Value[];
  };
}

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The columns of a table from its batch fields; `ints` are the fields stored as integers. */
function entryColumns(
  zoneColumn: string,
  fields: readonly string[],
  ints: readonly string[],
): Pick<EntryTable, 'fileColumns' | 'key' | 'columns' | 'types'> {
  const kind = (f: string): ColumnKind => (ints.includes(f) ? 'int' : 'text');
  const [logId, ...rest] = fields.map((f) => ({ name: snake(f), kind: kind(f) }));
  return {
    fileColumns: [{ name: zoneColumn, kind: 'int' }, logId!, { name: 'log_date', kind: 'text' }, ...rest],
    key: [zoneColumn, 'timestamp', 'log_id'],
    columns: fields.map(snake),
    types: fields.map((f) => (kind(f) === 'int' ? 'bigint' : 'text')),
  };
}

export const ORIGIN_TABLE: EntryTable = {
  source: 'origin',
  table: 'origin_error_logs',
  zoneColumn: 'pull_zone_id',
  ...entryColumns('pull_zone_id', ORIGIN_FIELDS, ['timestamp', 'statusCode']),
  fields: ORIGIN_FIELDS,
  rollup: {
    table: 'origin_hourly',
    keys: ['status_code', 'error_code'],
    keyTypes: ['bigint', 'text'],
    empty: [0, ''],
    fromBatch: (b, i) => {
      const o = b as OriginBatch;
      return [rollupValue(o.statusCode[i], 0), rollupValue(o.errorCode[i], '')];
    },
  },
};

export const SHIELD_TABLE: EntryTable = {
  source: 'shield',
  table: 'shield_event_logs',
  zoneColumn: 'shield_zone_id',
  ...entryColumns('shield_zone_id', SHIELD_FIELDS, ['timestamp']),
  fields: SHIELD_FIELDS,
  rollup: {
    table: 'shield_hourly',
    keys: ['rule_id', 'severity', 'status'],
    keyTypes: ['text', 'text', 'text'],
    empty: ['', '', ''],
    fromBatch: (b, i) => {
      const s = b as ShieldBatch;
      return [rollupValue(s.ruleId[i], ''), rollupValue(s.severity[i], ''), rollupValue(s.status[i], '')];
    },
  },
};

export const ENTRY_TABLES: Record<LogSource, EntryTable> = { origin: ORIGIN_TABLE, shield: SHIELD_TABLE };
