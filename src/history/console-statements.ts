// Pure: the console's questions (edgelog serve) as statements in the archive's dialect, answered by the
// same query layer as `edgelog query` (archive-queries.ts). The query layer takes SQL text and no bound
// parameters, so every value a request brings is checked here first: integers are formatted from
// numbers that are safe integers, days must be YYYY-MM-DD, and text goes in only as a string literal
// (sqlStringLiteral: quotes doubled; DuckDB's '…' strings know no other escape), never as a name.
// Timestamps are compared as integer constants, so the history's views leave out the days outside the
// range without opening them (statement-bounds.ts).
import { isDayText } from '../time/utc-day.js';
import { GUARDIAN_COUNTER_COLUMNS } from '../values/guardian-counters.js';
import { sqlStringLiteral } from './statement-tables.js';

export type ConsoleSource = 'origin' | 'shield';

/** The fields the explorer filters on by equality, per source: the request's name → the column. */
export const FILTER_FIELDS: Readonly<Record<ConsoleSource, Readonly<Record<string, FilterColumn>>>> = {
  origin: {
    status: { column: 'status_code', kind: 'int' },
    code: { column: 'error_code', kind: 'text' },
    region: { column: 'server_zone', kind: 'text' },
  },
  shield: {
    status: { column: 'status', kind: 'text' },
    rule: { column: 'rule_id', kind: 'text' },
    severity: { column: 'severity', kind: 'text' },
    country: { column: 'country', kind: 'text' },
    asn: { column: 'asn', kind: 'text' },
    method: { column: 'method', kind: 'text' },
    region: { column: 'server_zone', kind: 'text' },
  },
};

export interface FilterColumn {
  column: string;
  kind: 'int' | 'text';
}

interface SourceTable {
  table: string;
  zone: string;
  url: string;
  /** The columns a page of lines shows, in order (the zone first, the raw log last). */
  columns: readonly string[];
}

const TABLES: Readonly<Record<ConsoleSource, SourceTable>> = {
  origin: {
    table: 'origin_error_logs',
    zone: 'pull_zone_id',
    url: 'request_url',
    columns: ['timestamp', 'log_id', 'pull_zone_id', 'status_code', 'error_code', 'server_zone'],
  },
  shield: {
    table: 'shield_event_logs',
    zone: 'shield_zone_id',
    url: 'url',
    columns: ['timestamp', 'log_id', 'shield_zone_id', 'status', 'rule_id', 'severity', 'country', 'asn'],
  },
};

/** What the explorer asks for: one source, its zones, a time range and filters. */
export interface LogFilter {
  source: ConsoleSource;
  /** Empty: every zone. */
  zones: readonly number[];
  /** Milliseconds since the epoch, `from` included, `to` excluded. */
  from: number;
  to: number;
  /** Request field name (FILTER_FIELDS) → the value it must equal. */
  fields: Readonly<Record<string, string | number>>;
  /** Case-insensitive substring of the URL, the message or the raw log (where the user agent is). */
  text: string | null;
}

/** Where the previous page ended: its last line's timestamp and log id. */
export interface PageCursor {
  timestamp: number;
  logId: string;
}

/** A cursor and its direction: the lines before it (older, the pages) or after it (newer, the tail). */
type Keyset = PageCursor & { newer: boolean };

const int = (n: number, what: string): string => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what}: not an integer: ${n}`);
  return String(n);
};

/** A text value as a string literal; NUL would end the statement's text early in some clients. */
const text = (value: string, what: string): string => {
  if (value.includes('\0')) throw new RangeError(`${what}: NUL is not allowed`);
  return sqlStringLiteral(value);
};

/** The WHERE conjuncts of a filter (and of a page cursor). */
function conditions(f: LogFilter, cursor: Keyset | null): string[] {
  const t = TABLES[f.source];
  const where = [`timestamp >= ${int(f.from, 'from')}`, `timestamp < ${int(f.to, 'to')}`];
  if (f.zones.length > 0) where.push(`${t.zone} IN (${f.zones.map((z) => int(z, 'zone')).join(', ')})`);
  for (const [name, value] of Object.entries(f.fields)) {
    const field = FILTER_FIELDS[f.source][name];
    if (field === undefined) throw new RangeError(`no field ${name} for ${f.source} logs`);
    const literal =
      field.kind === 'int'
        ? int(Number(value), name)
        : text(typeof value === 'string' ? value : String(value), name);
    where.push(`${field.column} = ${literal}`);
  }
  if (f.text !== null && f.text !== '') {
    const needle = `lower(${text(f.text, 'text')})`;
    where.push(
      `(contains(lower(${t.url}), ${needle}) OR contains(lower(message), ${needle}) OR contains(lower(log), ${needle}))`,
    );
  }
  if (cursor !== null) {
    // The lines strictly before the cursor in (timestamp, log_id) order (or after it, for the live
    // tail). The plain bound on timestamp is there for the views' day pruning, which reads only conjuncts.
    const ts = int(cursor.timestamp, 'cursor');
    const [plain, strict] = cursor.newer ? ['>=', '>'] : ['<=', '<'];
    where.push(
      `timestamp ${plain} ${ts}`,
      `(timestamp ${strict} ${ts} OR log_id ${strict} ${text(cursor.logId, 'cursor')})`,
    );
  }
  return where;
}

/** A page of lines, newest first, keyset-paged by (timestamp, log_id): `limit` lines and one more. */
export function logsPageSql(f: LogFilter, cursor: PageCursor | null, limit: number): string {
  return linesSql(f, cursor && { ...cursor, newer: false }, limit);
}

/**
 * The live tail: the lines after `after` in (timestamp, log_id) order, oldest first (so the next poll
 * goes on from the last of them and none is skipped): `limit` lines and one more.
 */
export function logsNewerSql(f: LogFilter, after: PageCursor, limit: number): string {
  return linesSql(f, { ...after, newer: true }, limit);
}

function linesSql(f: LogFilter, keyset: Keyset | null, limit: number): string {
  const t = TABLES[f.source];
  const order = keyset?.newer ? 'ASC' : 'DESC';
  return (
    `SELECT ${[...t.columns, `${t.url} AS url`, 'message', 'log'].join(', ')} FROM ${t.table} ` +
    `WHERE ${conditions(f, keyset).join(' AND ')} ` +
    `ORDER BY timestamp ${order}, log_id ${order} LIMIT ${int(limit + 1, 'limit')}`
  );
}

/**
 * Every matching entry, every column of its table (as `edgelog export` writes them), newest first: the
 * explorer's result as a download.
 */
export function logsExportSql(f: LogFilter): string {
  return (
    `SELECT * FROM ${TABLES[f.source].table} WHERE ${conditions(f, null).join(' AND ')} ` +
    'ORDER BY timestamp DESC, log_id DESC'
  );
}

/** Matches per time bucket of `bucketMs`, oldest first: (bucket start in ms, count). */
export function histogramSql(f: LogFilter, bucketMs: number): string {
  const b = int(bucketMs, 'bucket');
  return (
    `SELECT timestamp - timestamp % ${b} AS bucket, count(*) AS count FROM ${TABLES[f.source].table} ` +
    `WHERE ${conditions(f, null).join(' AND ')} GROUP BY 1 ORDER BY 1`
  );
}

/**
 * The top `top` values of every filter field of the source among the matches (Datasette's facets), one
 * statement reading the table once: (field, value, count), by field, most frequent first, ties by value.
 * `field` is the request's name of the field (FILTER_FIELDS), so a value can be clicked into a filter.
 */
export function facetsSql(f: LogFilter, top: number): string {
  return topValuesSql(
    f,
    Object.entries(FILTER_FIELDS[f.source]).map(([name, c]) => [name, c.column]),
    top,
  );
}

/**
 * The matches of a statement that reads them more than once, as a CTE DuckDB does not materialize: each
 * reading scans the files again for its own columns, which cost less than a copy of every match's values
 * (7 days of the bench's 10M-row history: the facets 364 → 255 ms, the top URLs and codes 463 → 356 ms,
 * the same answers; docs/MEASUREMENTS.md, issue 31).
 */
const MATCHES = 'WITH m AS NOT MATERIALIZED';

/** The top `top` values of each (name, column) among the filter's matches: (field, value, count). */
function topValuesSql(f: LogFilter, fields: ReadonlyArray<readonly [string, string]>, top: number): string {
  const t = TABLES[f.source];
  const columns = [...new Set(fields.map(([, c]) => c))];
  const parts = fields.map(
    ([name, column]) =>
      `(SELECT ${sqlStringLiteral(name)} AS field, CAST(${column} AS VARCHAR) AS value, count(*) AS count ` +
      `FROM m GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT ${int(top, 'top')})`,
  );
  return (
    `${MATCHES} (SELECT ${columns.join(', ')} FROM ${t.table} WHERE ${conditions(f, null).join(' AND ')}) ` +
    `SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY field, count DESC, value`
  );
}

/**
 * How a zone dashboard splits its hourly bars: origin errors by status class (`5xx`, `4xx`…, `unknown`
 * without a status) or by error code; Shield events by action (what their status says: 403 `blocked`,
 * 200 `logged`, 429 `rate-limited`, else the status) or by rule.
 */
const HOURLY_SPLITS = {
  origin: {
    class: "coalesce(CAST(status_code // 100 AS VARCHAR) || 'xx', 'unknown')",
    code: "coalesce(error_code, 'none')",
  },
  shield: {
    action:
      "CASE status WHEN '403' THEN 'blocked' WHEN '200' THEN 'logged' WHEN '429' THEN 'rate-limited' " +
      "ELSE coalesce(status, 'unknown') END",
    rule: "coalesce(rule_id, 'none')",
  },
} as const;

/** The split of each source's first panel (its status), and of its second (its code or rule). */
export const HOURLY_SPLIT_OF = {
  origin: { kind: 'class', detail: 'code' },
  shield: { kind: 'action', detail: 'rule' },
} as const satisfies Record<ConsoleSource, { kind: string; detail: string }>;

/** Kinds a split by code or rule keeps apart; the rest are counted together as OTHER_KIND. */
export const DETAIL_KINDS = 8;
export const OTHER_KIND = '(other)';

/**
 * A zone dashboard's series: the matches per UTC hour by kind, oldest first (HOURLY_SPLITS). Split
 * `detail` (codes, rules: many values) keeps the DETAIL_KINDS most frequent over the range and counts
 * the rest as OTHER_KIND, so the bars keep a readable legend and the same totals.
 */
export function dashboardHourlySql(f: LogFilter, split: 'kind' | 'detail' = 'kind'): string {
  const splits: Readonly<Record<string, string>> = HOURLY_SPLITS[f.source];
  const kind = splits[HOURLY_SPLIT_OF[f.source][split]]!;
  const m =
    `SELECT timestamp - timestamp % 3600000 AS hour, ${kind} AS kind FROM ${TABLES[f.source].table} ` +
    `WHERE ${conditions(f, null).join(' AND ')}`;
  if (split === 'kind')
    return `WITH m AS (${m}) SELECT hour, kind, count(*) AS count FROM m GROUP BY ALL ORDER BY 1, 2`;
  return (
    `${MATCHES} (${m}), top AS (SELECT kind FROM m GROUP BY 1 ORDER BY count(*) DESC, 1 ` +
    `LIMIT ${int(DETAIL_KINDS, 'kinds')}) ` +
    `SELECT hour, CASE WHEN kind IN (SELECT kind FROM top) THEN kind ELSE ${sqlStringLiteral(OTHER_KIND)} END ` +
    'AS kind, count(*) AS count FROM m GROUP BY ALL ORDER BY 1, 2'
  );
}

/** The Guardian counters (api_guardian_snapshots' columns), in the order the dashboard shows them. */
export const GUARDIAN_COUNTERS = Object.values(GUARDIAN_COUNTER_COLUMNS);

/**
 * A Shield zone dashboard's Guardian counters over the range: each snapshot of each zone asked for (ISO
 * text), by zone and then oldest first, with each counter's value and its growth since that zone's
 * previous snapshot (`<counter>_delta`, a reset counted as api_guardian_deltas counts it). The counters
 * are a Shield zone's own (one API call per zone: api_guardian_snapshots.shield_zone_id), so rows are
 * never summed over zones: a sum is no zone's figures. Snapshots are taken by time, not by log line, so
 * only the zones and the range apply.
 */
export function dashboardGuardianSql(f: Pick<LogFilter, 'zones' | 'from' | 'to'>): string {
  const at = (ms: number, what: string) => sqlStringLiteral(new Date(Number(int(ms, what))).toISOString());
  const where = [`taken_at >= ${at(f.from, 'from')}`, `taken_at < ${at(f.to, 'to')}`];
  if (f.zones.length > 0) where.push(`shield_zone_id IN (${f.zones.map((z) => int(z, 'zone')).join(', ')})`);
  const values = GUARDIAN_COUNTERS.flatMap((c) => [c, `${c}_delta`]);
  return (
    `SELECT shield_zone_id, taken_at, ${values.join(', ')} FROM api_guardian_deltas ` +
    `WHERE ${where.join(' AND ')} ORDER BY shield_zone_id, taken_at, id`
  );
}

/** A zone dashboard's top lists: URLs, and Shield's countries and ASNs (origin's error codes). */
export function dashboardTopSql(f: LogFilter, top: number): string {
  const fields: Array<[string, string]> =
    f.source === 'origin'
      ? [
          ['url', TABLES.origin.url],
          ['code', 'error_code'],
        ]
      : [
          ['url', TABLES.shield.url],
          ['country', 'country'],
          ['asn', 'asn'],
        ];
  return topValuesSql(f, fields, top);
}

/** Bucket sizes a histogram may use, smallest first. */
const BUCKETS_MS = [
  60_000,
  300_000,
  900_000,
  1_800_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  86_400_000,
  7 * 86_400_000,
];

/** The smallest bucket that cuts [from, to) into at most `most` bars (the largest for longer ranges). */
export function histogramBucket(from: number, to: number, most = 120): number {
  const span = Math.max(0, to - from);
  return BUCKETS_MS.find((b) => span / b <= most) ?? BUCKETS_MS[BUCKETS_MS.length - 1]!;
}

/** The ledger's rows of the days in [from, to] (YYYY-MM-DD), by source, zone and day. */
export function ledgerSql(from: string, to: string): string {
  if (!isDayText(from) || !isDayText(to)) throw new RangeError('days are YYYY-MM-DD');
  return (
    'SELECT source, zone_id, log_date, state, pages, entries, archived_entries, quarantined_entries, ' +
    'last_error, updated_at FROM ingest_ledger ' +
    `WHERE log_date >= ${sqlStringLiteral(from)} AND log_date <= ${sqlStringLiteral(to)} ` +
    'ORDER BY source, zone_id, log_date'
  );
}

/**
 * The overview's questions, each the statement `edgelog query` would be given for it. Ingestion lag:
 * how far the ledger says each (source, zone) is covered (`covered_until`, as /metrics'
 * edgelog_zone_ingestion_lag_seconds reads it), and its newest complete day.
 */
export const ZONE_LAG_SQL =
  "SELECT source, zone_id, max(covered_until) AS covered_until, max(log_date) FILTER (WHERE state = 'complete') " +
  'AS last_complete_day FROM ingest_ledger GROUP BY source, zone_id ORDER BY source, zone_id';

/** The alerts firing now: a rule's per zone, and a sql rule's per row of labels. */
export const FIRING_ALERTS_SQL =
  "SELECT rule, source, CAST(zone_id AS VARCHAR) AS target, since, last_value, last_threshold FROM alert_state WHERE state = 'firing' " +
  "UNION ALL SELECT rule, 'sql' AS source, labels AS target, since, last_value, NULL AS last_threshold " +
  "FROM alert_series_state WHERE state = 'firing' ORDER BY since DESC, rule, target";

/** The history's size: the zone-days merged into parts, their entries and bytes (`edgelog status`'s). */
export const HISTORY_SIZE_SQL =
  'SELECT count(*) AS days, coalesce(sum(entries), 0) AS entries, coalesce(sum(bytes), 0) AS bytes, ' +
  'max(compacted_at) AS last_merge_at FROM history_days WHERE compacted_at IS NOT NULL';

/** The alerts page: each rule's state per zone, and a sql rule's per row of labels. */
export const ALERT_STATES_SQL =
  'SELECT rule, source, zone_id, state, since, last_value, last_threshold FROM alert_state ORDER BY rule, source, zone_id';
export const SERIES_STATES_SQL =
  'SELECT rule, labels, state, since, last_value FROM alert_series_state ORDER BY rule, labels';

/** The latest notices and their delivery, newest first. */
export function recentNoticesSql(limit: number): string {
  return (
    'SELECT id, hook, rule, zone_id, status, created_at, delivered_at, attempts, last_error ' +
    `FROM alert_notifications ORDER BY created_at DESC, id, hook LIMIT ${int(limit, 'limit')}`
  );
}

/** The silences not ended before `endedAfter` (ms), newest first. */
export function silencesSql(endedAfter: number): string {
  return (
    'SELECT id, matchers, starts_at, ends_at, comment, created_at FROM alert_silences ' +
    `WHERE ends_at > ${int(endedAfter, 'endedAfter')} ORDER BY created_at DESC, id`
  );
}

/** What the console asks once at start, to know the archive answers (and to load DuckDB then). */
export const ARCHIVE_PROBE_SQL = 'SELECT count(*) AS days FROM ingest_ledger';
