// Pure: how each source's page maps onto its entry table and hourly rollup (column names, types, and
// which batch field fills each column), so one writer serves both sources. The tables' names are the
// ones both dialects share (rows.ts SOURCE_TABLES).
import type { LogSource } from '../ledger-types.js';
import { ORIGIN_FIELDS, SHIELD_FIELDS, SOURCE_TABLES, type OriginBatch, type ShieldBatch } from '../rows.js';
import { rollupValue } from '../../values/storable.js';

export type AnyBatch = OriginBatch | ShieldBatch;
type Value = string | number | null;

export interface EntryTable {
  source: LogSource;
  table: string;
  zoneColumn: string;
  /** The entry columns after the zone and log_date, in batch-field order. */
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

export const ORIGIN_TABLE: EntryTable = {
  source: 'origin',
  table: SOURCE_TABLES.origin.raw,
  zoneColumn: SOURCE_TABLES.origin.zone,
  columns: ORIGIN_FIELDS.map(snake),
  types: ORIGIN_FIELDS.map((f) => (f === 'timestamp' || f === 'statusCode' ? 'bigint' : 'text')),
  fields: ORIGIN_FIELDS,
  rollup: {
    table: SOURCE_TABLES.origin.rollup,
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
  table: SOURCE_TABLES.shield.raw,
  zoneColumn: SOURCE_TABLES.shield.zone,
  columns: SHIELD_FIELDS.map(snake),
  types: SHIELD_FIELDS.map((f) => (f === 'timestamp' ? 'bigint' : 'text')),
  fields: SHIELD_FIELDS,
  rollup: {
    table: SOURCE_TABLES.shield.rollup,
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
