// Pure: the store's tables a reader sees in the archive's one SQL dialect (DuckDB, docs/SQL.md) beside
// the entry tables: their columns in the store's order and each column's type there. Both stores have
// them with these columns (test/postgres/archive-tables.test.ts compares this list with each store's
// own schema), so a statement reads them alike whichever store holds the archive. Internal tables
// (schema_migrations, term_watermark, write_batch, history_flush) are not among them.
export type ArchiveColumnType = 'BIGINT' | 'VARCHAR' | 'DOUBLE';

export interface StoreTable {
  name: StoreTableName;
  columns: ReadonlyArray<readonly [name: string, type: ArchiveColumnType]>;
  /** One line for `edgelog query --schema` and the console. */
  about: string;
}

export const STORE_TABLE_NAMES = [
  'ingest_ledger',
  'origin_hourly',
  'shield_hourly',
  'term_hourly',
  'api_guardian_snapshots',
  'history_days',
  'alert_state',
  'alert_series_state',
  'alert_notifications',
  'alert_silences',
] as const;
export type StoreTableName = (typeof STORE_TABLE_NAMES)[number];

const I = 'BIGINT';
const T = 'VARCHAR';
const D = 'DOUBLE';
type Col = readonly [string, ArchiveColumnType];
const cols = (type: ArchiveColumnType, ...names: string[]): Col[] => names.map((n) => [n, type] as const);

export const STORE_TABLES: Readonly<Record<StoreTableName, StoreTable>> = {
  ingest_ledger: {
    name: 'ingest_ledger',
    about: 'where ingestion of each (source, zone, day) stands, and what retention removed',
    columns: [
      ...cols(T, 'source'),
      ...cols(I, 'zone_id'),
      ...cols(T, 'log_date', 'state'),
      ...cols(I, 'pass_started_at'),
      ...cols(T, 'next_token'),
      ...cols(I, 'pages', 'entries', 'new_entries', 'malformed', 'quarantined', 'first_ts', 'last_ts'),
      ...cols(I, 'archived_entries', 'quarantined_entries', 'covered_until'),
      ...cols(T, 'last_error', 'lease_owner'),
      ...cols(I, 'lease_until', 'updated_at', 'finished_at', 'retention_removed_at'),
    ],
  },
  origin_hourly: {
    name: 'origin_hourly',
    about: 'origin errors per zone, hour (ms), status code and error code, counted at ingest',
    columns: [
      ...cols(I, 'pull_zone_id', 'hour', 'status_code'),
      ...cols(T, 'error_code'),
      ...cols(I, 'count'),
    ],
  },
  shield_hourly: {
    name: 'shield_hourly',
    about: 'Shield events per zone, hour (ms), rule, severity and status, counted at ingest',
    columns: [
      ...cols(I, 'shield_zone_id', 'hour'),
      ...cols(T, 'rule_id', 'severity', 'status'),
      ...cols(I, 'count'),
    ],
  },
  term_hourly: {
    name: 'term_hourly',
    about: 'how often each value of a field occurred per zone and hour (new-term rules)',
    columns: [
      ...cols(T, 'source'),
      ...cols(I, 'zone_id'),
      ...cols(T, 'field', 'value'),
      ...cols(I, 'hour', 'count'),
    ],
  },
  api_guardian_snapshots: {
    name: 'api_guardian_snapshots',
    about: 'periodic copies of the API Guardian counters',
    columns: [
      ...cols(I, 'id', 'shield_zone_id'),
      ...cols(T, 'taken_at'),
      ...cols(
        I,
        'total_blocked_requests',
        'total_logged_requests',
        'total_rate_limited',
        'total_requests_inspected',
        'total_failed_request_validation',
        'total_failed_authentication_enforcement',
      ),
      ...cols(T, 'overview', 'error', 'counters'),
    ],
  },
  history_days: {
    name: 'history_days',
    about: "the history's record of each (source, zone, day) merged into one part, and when it was pruned",
    columns: [
      ...cols(T, 'source'),
      ...cols(I, 'zone_id'),
      ...cols(T, 'log_date'),
      ...cols(I, 'entries', 'quarantined', 'bytes'),
      ...cols(T, 'checksum', 'quarantine_checksum'),
      ...cols(I, 'ledger_entries', 'ledger_quarantined', 'compacted_at', 'pruned_at'),
      ...cols(T, 'lease_owner'),
      ...cols(I, 'lease_until'),
      ...cols(T, 'part', 'quarantine_part'),
      ...cols(I, 'lost_entries', 'lost_at'),
    ],
  },
  alert_state: {
    name: 'alert_state',
    about: 'the state of each alert rule per zone',
    columns: [
      ...cols(T, 'rule'),
      ...cols(I, 'zone_id'),
      ...cols(T, 'source', 'state'),
      ...cols(I, 'since'),
      ...cols(T, 'fingerprint'),
      ...cols(I, 'first_evaluated_at', 'last_evaluated_at', 'last_notified_at'),
      ...cols(D, 'last_value', 'last_threshold'),
      ...cols(T, 'last_detail', 'notified'),
    ],
  },
  alert_series_state: {
    name: 'alert_series_state',
    about: 'the state of each alert of a sql rule (one per row of labels)',
    columns: [
      ...cols(T, 'rule', 'series', 'labels', 'state'),
      ...cols(I, 'since'),
      ...cols(T, 'fingerprint'),
      ...cols(I, 'first_evaluated_at', 'last_evaluated_at', 'last_notified_at'),
      ...cols(D, 'last_value'),
      ...cols(T, 'last_detail', 'notified'),
    ],
  },
  alert_notifications: {
    name: 'alert_notifications',
    about: 'notices sent (or to send) to each hook, and their delivery',
    columns: [
      ...cols(T, 'id', 'hook', 'rule'),
      ...cols(I, 'zone_id'),
      ...cols(T, 'status', 'notice'),
      ...cols(I, 'created_at', 'enqueued_at', 'delivered_at', 'attempts'),
      ...cols(T, 'last_error'),
    ],
  },
  alert_silences: {
    name: 'alert_silences',
    about: 'silences: matchers and the time they hold notices',
    columns: [
      ...cols(T, 'id', 'matchers'),
      ...cols(I, 'starts_at', 'ends_at'),
      ...cols(T, 'comment'),
      ...cols(I, 'created_at'),
    ],
  },
};
