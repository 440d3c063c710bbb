// Pure: which tables `edgelog migrate-store` copies from a SQLite archive into a PostgreSQL one, in what
// order, which of their columns, and what makes a row "already there" (so that a second run adds nothing
// and a run killed half-way is completed by the next).
//
// The two dialects' schemas (migrations/sqlite/*.sql, migrations/postgres/*.sql) hold the same tables and
// columns, except:
// - the entry tables', quarantined_entries' and api_guardian_snapshots' `id`: SQLite's rowid, an identity
//   on PostgreSQL that is not a key there. The target numbers the rows it receives (in the source's
//   order); the keys that make a row the same one are the entry key, the quarantine key, and a
//   snapshot's zone and time.
// - `time` of the entry tables: generated on both sides, never copied.
// - the hourly rollups and term_hourly: copied as rows, the source's counts replacing the target's of the
//   same key: they count every entry the source archived, also those pruned into the history (no longer
//   in its entry tables). SQLite's term_watermark is its own.
// - `batch` of the entry tables and the quarantine is copied as it is: the history (history.path, which
//   the target's configuration names too) goes by those numbers, and the target's write_batch_seq is set
//   past the source's last (postgres-target.ts continueBatches).
// - history_days: copied (the history's record of each merged day, and whether it was pruned); the
//   files stay where they are.
// - schema_migrations: each side records its own dialect's files.
import { DAY_MS } from '../../time/utc-day.js';
import { ORIGIN_TABLE, SHIELD_TABLE, type EntryTable } from '../entry-tables.js';

/** When a source row counts as already in the target. */
export type ConflictRule =
  /** A unique key of the target: ON CONFLICT DO NOTHING. */
  | { kind: 'key'; columns: readonly string[] }
  /**
   * A key, and the row further on wins: a re-run after the source moved on brings the target up to
   * date, and a row the target moved further itself is kept. `by` is a column, or a SQL row of
   * expressions on the row `r` compared in order (`(r.a IS NOT NULL, r.b)`).
   */
  | { kind: 'newest'; columns: readonly string[]; by: string | ((r: string) => string) }
  /** No unique key on the target: a row whose `columns` match an existing one is skipped. */
  | { kind: 'absent'; columns: readonly string[] }
  /**
   * The ledger: a day the target holds already is merged by the ledger rules (ledger-merge.ts), its
   * totals counted from the rows the target holds of it.
   */
  | { kind: 'ledger'; columns: readonly string[] }
  /** A key, and the source's row replaces the target's (the rollups: the source's counts are the truth). */
  | { kind: 'replace'; columns: readonly string[] };

export interface TableSpec {
  name: string;
  conflict: ConflictRule;
  /** Source columns that are not copied (the target fills or generates them). */
  skip: readonly string[];
  /** Columns written as NULL whatever the source holds. */
  cleared?: readonly string[];
  /** An entry table: its rollup is counted from the rows inserted, and its rows need day partitions. */
  entry?: EntryTable;
  /** quarantined_entries: partitioned by this text column (a UTC day). */
  partitionDay?: string;
  /**
   * How the final check groups the rows (SQL on both dialects): it compares the target's rows in each of
   * the source's groups, so rows of the target's own in other groups (other zones, days) do not count.
   */
  groups: readonly string[];
  /** What the check compares in each group. @defaultValue 'rows' */
  total?: Total;
}

/**
 * Copy order. The ledger goes last: until its rows are there, a worker pointed at a half-copied target
 * fetches the days again (adding nothing) instead of taking them as complete.
 */
export const TABLES: readonly TableSpec[] = [
  {
    name: 'origin_error_logs',
    conflict: { kind: 'key', columns: ['pull_zone_id', 'timestamp', 'log_id'] },
    skip: ['id', 'time'],
    entry: ORIGIN_TABLE,
    groups: ['pull_zone_id', 'log_date'],
  },
  {
    name: 'shield_event_logs',
    conflict: { kind: 'key', columns: ['shield_zone_id', 'timestamp', 'log_id'] },
    skip: ['id', 'time'],
    entry: SHIELD_TABLE,
    groups: ['shield_zone_id', 'log_date'],
  },
  {
    name: 'quarantined_entries',
    conflict: { kind: 'key', columns: ['source', 'zone_id', 'log_date', 'page', 'position', 'raw_hash'] },
    skip: ['id'],
    partitionDay: 'log_date',
    groups: ['source', 'zone_id', 'log_date'],
  },
  ...[ORIGIN_TABLE, SHIELD_TABLE].map((t): TableSpec => ({
    name: t.rollup.table,
    conflict: { kind: 'replace', columns: [t.zoneColumn, 'hour', ...t.rollup.keys] },
    skip: [],
    groups: [t.zoneColumn, `hour - hour % ${DAY_MS}`],
    total: 'sum(count)',
  })),
  {
    name: 'term_hourly',
    conflict: { kind: 'replace', columns: ['source', 'zone_id', 'field', 'value', 'hour'] },
    skip: [],
    groups: ['source', 'zone_id', 'field', `hour - hour % ${DAY_MS}`],
    total: 'sum(count)',
  },
  {
    name: 'history_days',
    // A later merge (or pruning) of the day in the source wins; a lease is the source host's.
    conflict: {
      kind: 'newest',
      columns: ['source', 'zone_id', 'log_date'],
      by: (r) => `(coalesce(${r}.compacted_at, 0), coalesce(${r}.pruned_at, 0))`,
    },
    skip: [],
    groups: ['source', 'zone_id', 'log_date'],
    cleared: ['lease_owner', 'lease_until'],
  },
  {
    name: 'api_guardian_snapshots',
    conflict: { kind: 'absent', columns: ['shield_zone_id', 'taken_at'] },
    skip: ['id'],
    groups: ['shield_zone_id', 'substr(taken_at, 1, 10)'],
  },
  {
    name: 'alert_notifications',
    // A notice moves on (handed to the queue, attempted, delivered) and never back: the source's row
    // replaces the target's when it got further, so a re-run after the source delivered it says so.
    conflict: {
      kind: 'newest',
      columns: ['id', 'hook'],
      by: (r) => `(${r}.delivered_at IS NOT NULL, ${r}.attempts, ${r}.enqueued_at IS NOT NULL)`,
    },
    skip: [],
    groups: ['id', 'hook'],
  },
  {
    name: 'alert_state',
    conflict: { kind: 'newest', columns: ['rule', 'zone_id'], by: 'last_evaluated_at' },
    skip: [],
    groups: ['rule', 'zone_id'],
  },
  {
    name: 'alert_silences',
    // A silence only ever ends sooner (unsilence): the row that ends first wins.
    conflict: { kind: 'newest', columns: ['id'], by: (r) => `(-${r}.ends_at)` },
    skip: [],
    groups: ['id'],
  },
  {
    name: 'alert_series_state',
    conflict: { kind: 'newest', columns: ['rule', 'series'], by: 'last_evaluated_at' },
    skip: [],
    groups: ['rule', 'series'],
  },
  {
    name: 'ingest_ledger',
    conflict: { kind: 'ledger', columns: ['source', 'zone_id', 'log_date'] },
    skip: [],
    groups: ['source', 'zone_id', 'log_date'],
    // A lease belongs to a process of the source's host; in the target it would only hold the day up.
    cleared: ['lease_owner', 'lease_until'],
  },
];

/** Tables of the archive that are not copied as rows (and why), so an unknown table is noticed. */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  term_watermark: "SQLite's mark of the entries counted into term_hourly (the counts are copied whole)",
  schema_migrations: 'each dialect records its own migrations',
  write_batch: "SQLite's batch counter: the target's sequence is set past it",
  history_flush: "the flush's lease; the history's own marker says what was flushed",
};

/** What a group's total is: its rows, or the sum of a rollup's counts. */
export type Total = 'rows' | 'sum(count)';

/** A target column: its name and SQL type. */
export interface TargetColumn {
  name: string;
  type: string;
}

export interface CopyColumns {
  /** Column names, in copy order (source select list, staging table, insert list). */
  names: string[];
  /** Their types on the target (for the staging table). */
  types: string[];
}

/**
 * The columns to copy: the source's, less the skipped ones. Throws when the source has a column the
 * target lacks (the schemas differ in a way this command does not know) or lacks a key column.
 */
export function copyColumns(
  spec: TableSpec,
  source: readonly string[],
  target: readonly TargetColumn[],
): CopyColumns {
  const byName = new Map(target.map((c) => [c.name, c.type]));
  const names = source.filter((c) => !spec.skip.includes(c));
  const unknown = names.filter((c) => !byName.has(c));
  if (unknown.length > 0) {
    throw new Error(`${spec.name}: the target has no column ${unknown.join(', ')} (the schemas differ)`);
  }
  const missing = spec.conflict.columns.filter((c) => !names.includes(c));
  if (missing.length > 0) throw new Error(`${spec.name}: the source has no column ${missing.join(', ')}`);
  return { names, types: names.map((c) => byName.get(c)!) };
}
