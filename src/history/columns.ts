// The columns of the history's tables: every column of the store's table except `id` and the generated
// `time`, in the store's order, with the DuckDB type the Parquet files hold (INTEGER → BIGINT, TEXT →
// VARCHAR). The query side reads the files and the store's rows with these lists, so both sides of a
// UNION ALL have the same columns.
import type { HistorySource, HistoryTable } from './layout.js';

export type HistoryColumnType = 'BIGINT' | 'VARCHAR';

export interface HistoryTableColumns {
  /** Column name → type, in the store's order. */
  columns: ReadonlyArray<readonly [name: string, type: HistoryColumnType]>;
  /** The column holding the zone id (the `zone=` of a file's path). */
  zoneColumn: string;
  /** The quarantine holds both sources; its `source` column is the `source=` of a file's path. */
  sourceColumn?: string;
  /** The entry tables have `time` computed from `timestamp` on read. */
  timeFrom?: string;
}

const ORIGIN: HistoryTableColumns = {
  zoneColumn: 'pull_zone_id',
  timeFrom: 'timestamp',
  columns: [
    ['pull_zone_id', 'BIGINT'],
    ['log_id', 'VARCHAR'],
    ['log_date', 'VARCHAR'],
    ['timestamp', 'BIGINT'],
    ['request_url', 'VARCHAR'],
    ['message', 'VARCHAR'],
    ['error_code', 'VARCHAR'],
    ['status_code', 'BIGINT'],
    ['server_zone', 'VARCHAR'],
    ['log', 'VARCHAR'],
    ['labels', 'VARCHAR'],
    ['parse_error', 'VARCHAR'],
  ],
};

const SHIELD: HistoryTableColumns = {
  zoneColumn: 'shield_zone_id',
  timeFrom: 'timestamp',
  columns: [
    ['shield_zone_id', 'BIGINT'],
    ['log_id', 'VARCHAR'],
    ['log_date', 'VARCHAR'],
    ['timestamp', 'BIGINT'],
    ['asn', 'VARCHAR'],
    ['country', 'VARCHAR'],
    ['rule_id', 'VARCHAR'],
    ['severity', 'VARCHAR'],
    ['method', 'VARCHAR'],
    ['rule_group', 'VARCHAR'],
    ['status', 'VARCHAR'],
    ['server_zone', 'VARCHAR'],
    ['url', 'VARCHAR'],
    ['remote_ip', 'VARCHAR'],
    ['message', 'VARCHAR'],
    ['log', 'VARCHAR'],
    ['parse_error', 'VARCHAR'],
    ['extra_labels', 'VARCHAR'],
  ],
};

const QUARANTINE: HistoryTableColumns = {
  zoneColumn: 'zone_id',
  sourceColumn: 'source',
  columns: [
    ['source', 'VARCHAR'],
    ['zone_id', 'BIGINT'],
    ['log_date', 'VARCHAR'],
    ['raw', 'VARCHAR'],
    ['raw_hash', 'VARCHAR'],
    ['reason', 'VARCHAR'],
    ['page', 'BIGINT'],
    ['position', 'BIGINT'],
    ['first_seen_at', 'BIGINT'],
  ],
};

export const HISTORY_COLUMNS: Readonly<Record<HistoryTable, HistoryTableColumns>> = {
  origin_error_logs: ORIGIN,
  shield_event_logs: SHIELD,
  quarantined_entries: QUARANTINE,
};

export const HISTORY_SOURCES: readonly HistorySource[] = ['origin', 'shield'];
