// The archive as ingestion, the planner, alerts, reports and queries see it, whatever holds it: SQLite
// (one file, synchronous underneath) or PostgreSQL (a server many workers share). Every operation is
// asynchronous so both can implement it; each one is a whole unit of work (its own transaction), so a
// caller never holds a transaction open across an await of its own.
//
// The guarantees every implementation keeps (test/postgres/conformance.ts checks them on both):
// - storePage commits a page's rows, the hourly rollup counts of the new ones, its quarantined entries
//   and the ledger's progress (checkpoint and counts) in ONE transaction, or nothing at all;
// - inserts are idempotent on the entry key (zone, timestamp, log_id) and on the quarantine key, so a
//   page stored twice adds nothing, and the rollups count each row once;
// - a lease is held in the ledger row and checked inside the page's transaction: a page stored by a run
//   that lost its lease is rolled back; leases expire by time (a holder known to be gone may be taken
//   over at once), so they hold across hosts;
// - the ledger's state rules (ledger-rules.ts): a later pass never makes a day's state say less.
import type { ApiGuardianMetrics } from '../api/index.js';
import type { Output } from '../format/output.js';
import type { Claim, DayKey, FinishState, LedgerRow, LogSource, StopState } from './ledger-types.js';
import type { AppliedMigration, MigrationFile } from './migration-files.js';
import type { OriginBatch, ShieldBatch } from './rows.js';
import type { HistoryStore } from './history-store.js';

export type * from './ledger-types.js';
export type { OriginBatch, OriginRow, RejectedEntry, ShieldBatch, ShieldRow } from './rows.js';
export type { AppliedMigration, MigrationFile } from './migration-files.js';
export type * from './history-store.js';

export type StoreDialect = 'sqlite' | 'postgres';

// --- Pages -------------------------------------------------------------------------------------------

/** One page (a Shield page, or a chunk of an origin day) as ingestion hands it to the store. */
export type PageInput =
  | {
      source: 'origin';
      /** The rows, and in `batch.rejected` the entries that could not be keyed. */
      batch: OriginBatch;
      /** Where the rejected entries came: 0 for an origin answer. */
      page: number;
      /** Origin days have no checkpoint token. */
      nextToken: null;
      /** API calls this page covers: 1 for the first chunk of an answer, 0 for the others. */
      pages: 0 | 1;
    }
  | {
      source: 'shield';
      batch: ShieldBatch;
      /** The page's number in the day (1-based), where its rejected entries came. */
      page: number;
      /** The checkpoint: the token of the page after this one, null after the last. */
      nextToken: string | null;
      pages: 0 | 1;
      /**
       * A part of a page stored in parts (fetch-pages.ts): what the pass's counts add, instead of the
       * batch's own — nothing for a part with more to follow, the whole page's with its last part — so a
       * page re-fetched after a part of it was stored is counted once. @defaultValue the batch's counts
       */
      counts?: PageCounts;
    };

/** What a page adds to the pass's counts: entries sent, of which malformed, of which quarantined. */
export interface PageCounts {
  entries: number;
  malformed: number;
  quarantined: number;
}

/** What a page adds to the pass's counts: its own `counts`, or its batch's (`malformed`: its rows'). */
export function pageCounts(page: PageInput, malformed: number): PageCounts {
  if (page.source === 'shield' && page.counts) return page.counts;
  return {
    entries: page.batch.logId.length + page.batch.rejected.length,
    malformed,
    quarantined: page.batch.rejected.length,
  };
}

/** What storing a page's rows found (the ledger's progress is made of it). */
export interface StoreResult {
  /** Rows not yet archived (inserted now). */
  inserted: number;
  malformed: number;
  firstTs: number | null;
  lastTs: number | null;
}

export interface PageStored extends StoreResult {
  kind: 'stored';
  /** Rejected entries added to quarantined_entries now (the others were already there). */
  quarantineInserted: number;
}

/** Another run holds the day now: nothing of the page was stored. */
export interface LeaseLost {
  kind: 'lease-lost';
}

// --- Ledger ------------------------------------------------------------------------------------------

/** ingest_ledger. Mirrors the SQLite LedgerRepository's behaviour exactly (ledger-rules.ts). */
export interface LedgerStore {
  get(key: DayKey): Promise<LedgerRow | undefined>;
  /**
   * Takes the day for `owner` unless someone else holds a live lease (`busy`). An unfinished pass (a
   * checkpoint and at least one page) is resumed when `resume` allows it; otherwise a new pass starts:
   * the pass counts are reset, the day's totals kept, and an archived state kept (KEEP_ARCHIVED). Two
   * claims racing for one day, from any host, end with exactly one holder.
   * @param abandoned True when a lease holder is known to be gone (its process died on this machine):
   *   its lease is taken at once. @defaultValue never
   */
  claim(
    key: DayKey,
    owner: string,
    now: number,
    leaseMs: number,
    resume: boolean,
    abandoned?: (owner: string) => boolean,
  ): Promise<Claim>;
  /** Extends `owner`'s lease to now + leaseMs. False if it no longer holds the day. */
  renew(key: DayKey, owner: string, now: number, leaseMs: number): Promise<boolean>;
  /**
   * Ends a pass that reached the end of the day's data (a complete day stays complete), drops the
   * checkpoint, raises covered_until and releases the lease. False if `owner` no longer holds the day.
   */
  finish(key: DayKey, owner: string, state: FinishState, coveredUntil: number, now: number): Promise<boolean>;
  /**
   * Ends or pauses a pass that did not reach the end and releases the lease; does nothing when `owner`
   * no longer holds the day. The checkpoint is kept when `keepCheckpoint` (`running`, or a retryable
   * failure); `expired` always drops it and keeps only `complete`, the others keep `complete` and
   * `partial`. The error text is redacted before it is stored.
   * @param keepCheckpoint @defaultValue state === 'running'
   */
  stop(
    key: DayKey,
    owner: string,
    state: StopState,
    error: string | null,
    now: number,
    keepCheckpoint?: boolean,
  ): Promise<void>;
  /** Every row, optionally for one source and zone, ordered by source, zone and newest day first. */
  list(filter?: { source?: LogSource; zone?: number }): Promise<LedgerRow[]>;
}

// --- Quarantine, guardian snapshots -------------------------------------------------------------------

export interface QuarantinedRow {
  id: number;
  source: LogSource;
  zone_id: number;
  log_date: string;
  raw: string;
  raw_hash: string;
  reason: string;
  page: number;
  position: number;
  first_seen_at: number;
}

export interface QuarantineStore {
  /** Ordered by source, zone, day and arrival. */
  list(filter?: { source?: LogSource; zone?: number; day?: string }): Promise<QuarantinedRow[]>;
}

export interface GuardianSnapshotRow {
  id: number;
  shield_zone_id: number;
  taken_at: string;
  total_blocked_requests: number | null;
  total_logged_requests: number | null;
  total_rate_limited: number | null;
  total_requests_inspected: number | null;
  total_failed_request_validation: number | null;
  total_failed_authentication_enforcement: number | null;
  overview: string | null;
  error: string | null;
  /** The six counters as the API sent them (JSON); a column is NULL where its counter did not fit. */
  counters: string | null;
}

/** The counter columns of api_guardian_snapshots. */
export type GuardianCounterColumn = Extract<keyof GuardianSnapshotRow, `total_${string}`>;

export interface GuardianStore {
  /** Stores one snapshot (a failed call too, with its error and no counters); returns its id. */
  add(zone: number, takenAt: Date, metrics: ApiGuardianMetrics | null, error?: unknown): Promise<number>;
  /** Snapshots of a zone in time order, optionally within [from, to) (ISO-8601 text). */
  list(zone: number, from?: string, to?: string): Promise<GuardianSnapshotRow[]>;
}

// --- Alerts -------------------------------------------------------------------------------------------

/** An alert rule's state for one zone (alerts/state-machine.ts AlertState has this shape). */
export interface StoredAlertState {
  state: 'inactive' | 'pending' | 'firing' | 'resolved';
  since: number;
  lastNotifiedAt: number | null;
  firstEvaluatedAt: number;
  /**
   * The last status receivers were sent (alerts/held-notices.ts): null when none since the alert last
   * stopped firing. A caller that does not track it leaves it undefined: saved as the state implies
   * (notifiedColumn).
   */
  notified?: 'firing' | 'resolved' | null;
}

export interface AlertStateRow {
  rule: string;
  zone_id: number;
  source: string;
  state: StoredAlertState['state'];
  since: number;
  fingerprint: string;
  first_evaluated_at: number;
  last_evaluated_at: number;
  last_notified_at: number | null;
  last_value: number | null;
  last_threshold: number | null;
  last_detail: string | null;
  notified: 'firing' | 'resolved' | null;
}

/** What the store needs of a notice (alerts/payload.ts Notice); the whole notice is kept as JSON. */
export interface NoticeRecord {
  id: string;
  rule: string;
  zone: number;
  status: 'firing' | 'resolved';
}

export interface NotificationRow {
  id: string;
  hook: string;
  rule: string;
  zone_id: number;
  status: string;
  delivered_at: number | null;
  attempts: number;
  last_error: string | null;
}

/** A counter's value in a snapshot. */
export interface CounterReading {
  /** ISO time. */
  taken_at: string;
  value: number;
}

/** Filters of a spike rule, matched against the rollups' columns. */
export interface SpikeFilter {
  statusCodeMin?: number | undefined;
  statusCodeMax?: number | undefined;
  errorCode?: string | undefined;
  severity?: string | undefined;
  ruleId?: string | undefined;
  status?: string | undefined;
}

/** Where a read of the outbox ended (its order: created_at, id, hook). */
export interface OutboxCursor {
  createdAt: number;
  id: string;
  hook: string;
}

export interface UndeliveredNotice<N> {
  id: string;
  hook: string;
  notice: N;
  attempts: number;
  /** Where a read that ends at this notice goes on from. */
  cursor: OutboxCursor;
}

/** alert_state: each rule's state per zone, saved with the notices of its changes. */
export interface AlertStateStore<N extends NoticeRecord = NoticeRecord> {
  getState(rule: string, zone: number): Promise<StoredAlertState | undefined>;
  /**
   * Saves a rule's state `to` and the notices of its change in one transaction (a notice once per
   * hook), if the stored state is still `from` as read (undefined: no row yet). A compare-and-set: of
   * two evaluations that read the same state, one saves and the other gets false (nothing saved).
   */
  save(
    key: { rule: string; zone: number; source: string; fingerprint: string },
    from: StoredAlertState | undefined,
    to: StoredAlertState,
    measured: { value: number | null; threshold: number | null; detail: unknown },
    notices: ReadonlyArray<{ hook: string; notice: N }>,
    now: number,
  ): Promise<boolean>;
  listStates(): Promise<AlertStateRow[]>;
}

/** alert_notifications: the outbox of notices, each delivered once per hook. */
export interface OutboxStore<N extends NoticeRecord = NoticeRecord> {
  /** Notices not yet handed to the delivery queue, oldest first. @param limit @defaultValue 1000 */
  unqueued(limit?: number): Promise<Array<{ id: string; hook: string; notice: N }>>;
  /**
   * Notices not delivered yet and not given up (fewer than `maxAttempts` attempts), oldest first, the
   * `limit` after `after` (a notice read before). Each with its attempts so far.
   */
  undelivered(maxAttempts: number, limit: number, after?: OutboxCursor): Promise<Array<UndeliveredNotice<N>>>;
  /** Whether a delivery of the notice to `hook` has been recorded. */
  delivered(id: string, hook: string): Promise<boolean>;
  /** Notices created at or after `sinceMs` (by any process), oldest first. */
  createdSince(sinceMs: number): Promise<Array<{ id: string; hook: string }>>;
  /** Records the notice handed to the delivery queue (the first time: a later hand-over keeps it). */
  markEnqueued(id: string, hook: string, now: number): Promise<void>;
  /** Counts a delivery attempt; a null error marks the notice delivered. */
  markAttempt(id: string, hook: string, now: number, error: string | null): Promise<void>;
  /** Notices in the outbox, newest first. @param limit @defaultValue 50 */
  notifications(limit?: number): Promise<NotificationRow[]>;
}

/**
 * What the alert rules measure, read from the tables of others: the ledger (coverage, last success), the
 * hourly rollups (count), the guardian snapshots (latestSnapshot).
 */
export interface RuleReads {
  /** Per day of a zone (YYYY-MM-DD): the ledger's covered_until, for days that have one. */
  coverage(source: string, zone: number): Promise<Map<string, number>>;
  /** Entries matching a filter with an hour in [from, to), from the hourly rollups. */
  count(source: LogSource, zone: number, from: number, to: number, filter: SpikeFilter): Promise<number>;
  /** End of the zone's last successful pass (complete or partial), or null. */
  lastSuccess(source: string, zone: number): Promise<number | null>;
  /**
   * The newest snapshot holding `column` (taken at or before `until`, an ISO time, when given), or
   * undefined. Throws for a column not a counter.
   */
  latestSnapshot(zone: number, column: string, until?: string): Promise<CounterReading | undefined>;
}

/** The alerts' slice of the archive: rule state, the outbox, and what the rules measure. */
export interface AlertsStore<N extends NoticeRecord = NoticeRecord>
  extends AlertStateStore<N>, OutboxStore<N>, RuleReads {}

// --- Silences -----------------------------------------------------------------------------------------

/** alert_silences: a silence holds in [starts_at, ends_at); `matchers` is JSON (alerts/silences.ts). */
export interface SilenceRow {
  id: string;
  matchers: string;
  starts_at: number;
  ends_at: number;
  comment: string | null;
  created_at: number;
}

export interface SilencesStore {
  /** Adds a silence (ids are unique). */
  add(silence: SilenceRow): Promise<void>;
  /**
   * Silences, newest first: those holding at `activeAt` when given (starts_at ≤ t < ends_at), else all
   * but those ended before `endedAfter` (@defaultValue every one).
   */
  list(filter?: { activeAt?: number; endedAfter?: number }): Promise<SilenceRow[]>;
  /** Ends a silence now: 'expired', 'ended' when it had ended already, 'unknown' for no such id. */
  expire(id: string, now: number): Promise<'expired' | 'ended' | 'unknown'>;
}

// --- New terms, keyed alert series (issue 21) ----------------------------------------------------------

/** Which values of a zone's window [from, to) did not occur in [lookbackFrom, from) (term_hourly). */
export interface NewTermsQuery {
  source: LogSource;
  zone: number;
  /** term_hourly's field (terms.ts termField). */
  field: string;
  from: number;
  to: number;
  lookbackFrom: number;
  /** Values occurring fewer times than this in the window are left out. */
  min: number;
  /** Values returned at most (the most frequent first). */
  limit: number;
}

export interface NewTermsResult {
  /** How many new values there are in all (`values` holds at most `limit` of them). */
  total: number;
  /** Most frequent first, then by value. */
  values: Array<{ value: string; count: number }>;
}

/** term_hourly, kept by storePage in the page's transaction; what new-term rules read. */
export interface TermsStore {
  newTerms(q: NewTermsQuery): Promise<NewTermsResult>;
}

/** One alert of a keyed rule (a sql rule's row): its labels as canonical JSON are its key. */
export interface SeriesKey {
  rule: string;
  /** Canonical JSON of the labels (sorted keys): the key. */
  series: string;
  fingerprint: string;
}

export interface SeriesStateRow {
  rule: string;
  series: string;
  labels: string;
  state: StoredAlertState['state'];
  since: number;
  fingerprint: string;
  first_evaluated_at: number;
  last_evaluated_at: number;
  last_notified_at: number | null;
  last_value: number | null;
  last_detail: string | null;
  /** The last status receivers were sent (as AlertStateRow's). */
  notified: 'firing' | 'resolved' | null;
}

/** alert_series_state: the state of each alert of a keyed rule; notices go to the same outbox. */
export interface AlertSeriesStore<N extends NoticeRecord = NoticeRecord> {
  /** Every series of `rule` with a state, by series key. */
  states(rule: string): Promise<Map<string, StoredAlertState>>;
  /**
   * As AlertsStore.save, for one series: state and notices in one transaction, if the stored state is
   * still `from` (a compare-and-set).
   */
  save(
    key: SeriesKey,
    from: StoredAlertState | undefined,
    to: StoredAlertState,
    measured: { value: number | null; detail: unknown },
    notices: ReadonlyArray<{ hook: string; notice: N }>,
    now: number,
  ): Promise<boolean>;
  /** Every series' state, by rule then series. */
  list(): Promise<SeriesStateRow[]>;
}

// --- Reports ------------------------------------------------------------------------------------------

/** One zone or every zone (null), and a window [startMs, endMs). */
export interface ReadScope {
  zone: number | null;
  startMs: number;
  endMs: number;
}

/** What a report counts from the rollups; each one names a column (or a class of one), NULL for "not given". */
export type RollupDimension =
  | 'status_class' // origin: '4xx', '5xx', 'other', NULL
  | 'status_code' // origin
  | 'error_code' // origin
  | 'rule_id' // shield
  | 'severity' // shield
  | 'status'; // shield

/** Entry columns a report counts (not in the rollups): read from the entries within the window. */
export type RawDimension = 'request_url' | 'server_zone' | 'country' | 'asn' | 'method';

export interface TopItem<K = string | null> {
  key: K;
  count: number;
}

export interface ReportReads {
  /** Entries per zone within the scope, largest first, then by zone. */
  zoneTotals(source: LogSource, scope: ReadScope): Promise<Array<{ zone: number; count: number }>>;
  /** Entries per bucket of `bucketMs` (bucket start = hour - hour % bucketMs); empty buckets absent. */
  buckets(
    source: LogSource,
    scope: ReadScope,
    bucketMs: number,
  ): Promise<Array<{ start: number; count: number }>>;
  /** The most frequent values of a rollup dimension, largest first, then by key; null limit: all. */
  rollupTop(
    source: LogSource,
    scope: ReadScope,
    dimension: RollupDimension,
    limit: number | null,
  ): Promise<Array<TopItem<string | number | null>>>;
  /** The most frequent values of an entry column among `zones`' entries in the window. */
  rawTop(
    source: LogSource,
    zones: readonly number[],
    scope: ReadScope,
    column: RawDimension,
    limit: number,
  ): Promise<TopItem[]>;
  /** One message of a Shield rule's events in the window (the rule's name), or null. */
  ruleMessage(zones: readonly number[], scope: ReadScope, ruleId: string): Promise<string | null>;
  /** Snapshots (with their counters) taken in the window, by zone then time. */
  guardianSnapshots(scope: ReadScope): Promise<GuardianSnapshotRow[]>;
  /**
   * How far each UTC day of the window is known (the ledger's covered_until: everything the API held
   * before it is archived), the furthest over the zones in scope; a day never fetched is absent.
   */
  coverage(source: LogSource, scope: ReadScope): Promise<Map<string, number>>;
}

/** What a report reads, all from one consistent snapshot of the archive. */
export interface ReportStore {
  snapshot<T>(read: (reads: ReportReads) => Promise<T>): Promise<T>;
}

// --- Ad-hoc read-only queries (edgelog query) ------------------------------------------------------------

/** A result cell: NULL, a float, an integer (bigint: every digit kept), text, or bytes. */
export type QueryValue = null | number | bigint | string | Uint8Array;

export interface QueryCursor {
  /** The result's column names; known once `next` has been called (a result with no rows has them too). */
  readonly columns: string[];
  /** Up to `max` more rows; an empty array at the end. */
  next(max: number): Promise<QueryValue[][]>;
}

export interface ReadOnlyQueryOptions {
  /** Each read of the statement is stopped after this long; null for none. */
  timeoutMs: number | null;
  /**
   * Stops the statement (on PostgreSQL, cancelled on the server, not only abandoned by the client); the
   * query then fails with StoreQueryError `stopped`. @defaultValue none
   */
  signal?: AbortSignal | undefined;
}

export interface QueryStore {
  /** Whose SQL `readOnly` takes, when the caller shapes a statement for it. @defaultValue 'postgres' */
  readonly dialect?: StoreDialect;
  /**
   * Runs one statement in a read-only transaction (a statement that would write fails, and nothing it
   * did is kept) and hands its rows to `consume`, which pulls them in batches. Throws the store's
   * QueryError / QueryTimeoutError equivalents through `consume`'s promise.
   */
  readOnly<T>(
    sql: string,
    opts: ReadOnlyQueryOptions,
    consume: (cursor: QueryCursor) => Promise<T>,
  ): Promise<T>;
}

/** Up to a bound of rows of one statement, and whether there were more. */
export interface RowsResult {
  columns: string[];
  rows: QueryValue[][];
  /** Rows beyond maxRows, or beyond maxResultChars, were left unread. */
  more: boolean;
  /** Rows were left unread for their size (maxResultChars), not their number. */
  sizeBound?: boolean;
}

/** A sql rule's run: its time and the size of what it may hand back (label-bounds.ts in alerts/). */
export interface RuleRunOptions {
  timeoutMs: number;
  maxRows: number;
  /**
   * A text value longer than this is cut to this many characters and one more (so the caller tells it
   * was longer); bytes to half as many. Bounds what one row of archived text costs. @defaultValue none
   */
  maxValueChars?: number;
  /** Characters of all values kept (after cutting); the rows past it are left unread. @defaultValue none */
  maxResultChars?: number;
}

/**
 * How a sql alert rule reads the archive: checked once at start (parses, and only reads), then run at
 * each evaluation within its time bound. Each store runs it its own way (rule-queries.ts: PostgreSQL on
 * the read-only query path; SQLite checks there and runs in a child process, sqlite/child-query.ts).
 */
export interface RuleQueries {
  /** Throws StoreQueryError (`refused` or `failed`) unless `sql` parses and only reads. Runs nothing. */
  check(sql: string): Promise<void>;
  run(sql: string, opts: RuleRunOptions): Promise<RowsResult>;
}

// --- Migrations, retention -----------------------------------------------------------------------------

export interface MigrationResult {
  id: number;
  name: string;
  status: 'applied' | 'already-applied' | 'failed' | 'not-run' | 'changed-after-apply';
  error?: string;
  /** PostgreSQL: the code of the failure (a SQLSTATE, or Node's such as ECONNREFUSED). */
  code?: string;
}

export interface PruneResult {
  /** Entry rows removed. */
  origin: number;
  shield: number;
  /** Quarantined entries removed (PostgreSQL drops their day partitions; SQLite keeps them: 0). */
  quarantined: number;
}

// --- Health and state (what /readyz, the metrics and `edgelog status` read) ---------------------------

/** Zones by source. */
export interface ZoneLists {
  origin: readonly number[];
  shield: readonly number[];
}

/** Reads the newest entry's timestamp (ms) of each zone by zoneKey (archive-reads.ts); absent: none. */
export type NewestEntries = () => Promise<ReadonlyMap<string, number>>;

/** A Shield zone's newest guardian snapshot: when, and its error (null when it succeeded). */
export interface GuardianHealthRow {
  zone: number;
  lastSnapshot: string | null;
  lastError: string | null;
}

/** The archive's size in bytes: SQLite's file and its write-ahead log; PostgreSQL's database. */
export interface ArchiveSize {
  database: number;
  /** SQLite only (0 between checkpoints that truncate it). */
  wal?: number;
}

export interface HealthStore {
  /**
   * Resolves when the archive takes writes now, else rejects with why (SQLite: the connection is open
   * and writable, and so are the file and its directory; PostgreSQL: one round trip through the pool).
   */
  writable(): Promise<void>;
  /** The migration files this build ships for the dialect, and those the archive has applied. */
  migrations(timeoutMs: number): Promise<{ files: MigrationFile[]; applied: AppliedMigration[] }>;
  /** The archive's size now. */
  size(): Promise<ArchiveSize>;
  /** A reader of the newest entry of `zones` (SQLite: one statement prepared now, run per call). */
  newestEntries(zones: ZoneLists): NewestEntries;
}

/** What `edgelog status` reads (openReader gives it without opening the store for writing). */
export interface StatusReads {
  /** Ledger rows of `sources` (of `zones` when given), by source, zone and newest day first. */
  ledgerRows(sources: readonly LogSource[], zones: readonly number[] | null): Promise<LedgerRow[]>;
  /** Per Shield zone with snapshots (of `zones` when given), its newest snapshot. */
  latestGuardian(zones: readonly number[] | null): Promise<GuardianHealthRow[]>;
  /** The newest entry (ms) of each zone by zoneKey. */
  newestEntries(zones: ZoneLists): Promise<Map<string, number>>;
}

// --- The readers' archive (open-reader.ts) ------------------------------------------------------------

/** The `database` section of the readers' configuration (config/reader-config.ts). */
export interface ReaderTarget {
  /** The SQLite file, when there is no server. */
  path: string;
  url: string | null;
  /** The same PostgreSQL archive as a role that may only read reaches it. @defaultValue url */
  readerUrl: string | null;
  ssl?: { rejectUnauthorized?: boolean | undefined; ca?: string | undefined } | undefined;
}

export interface OpenReaderOptions {
  /** PostgreSQL's application_name of the connections, e.g. "edgelog report". */
  applicationName: string;
  /** PostgreSQL: told before a query runs when the reading role may do more than read. */
  roleWarning?: (warning: string) => void;
}

export interface ArchiveReader {
  readonly dialect: StoreDialect;
  /** What `edgelog status` reads. */
  readonly status: StatusReads;
  /** Ad-hoc read-only statements (SQLite's `edgelog query` runs them bounded, in a thread: query/). */
  readonly queries: QueryStore;
  /** Alert states and recent notices (SQLite: through the archive itself, opened as the worker does). */
  readonly alerts: Pick<AlertsStore, 'listStates' | 'notifications'>;
  /** The silences (read as the alerts are). */
  readonly silences: Pick<SilencesStore, 'list'>;
  /** The sql rules' alerts (read as the alerts are). */
  readonly alertSeries: Pick<AlertSeriesStore, 'list'>;
  /**
   * Runs `read` on one consistent snapshot of the archive; what it writes goes through the `out` it is
   * given (SQLite checks before each write that a file read as a snapshot has not changed).
   */
  report<T>(out: Output, read: (reports: ReportStore, out: Output) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// --- The archive ------------------------------------------------------------------------------------------

export interface ArchiveStore {
  readonly dialect: StoreDialect;
  /** Where the archive is, for messages: a file path, or a URL without its password. */
  readonly location: string;
  readonly ledger: LedgerStore;
  readonly quarantine: QuarantineStore;
  readonly guardian: GuardianStore;
  readonly alerts: AlertsStore;
  readonly silences: SilencesStore;
  readonly terms: TermsStore;
  readonly alertSeries: AlertSeriesStore;
  readonly reports: ReportStore;
  readonly queries: QueryStore;
  /** The sql alert rules' reads. */
  readonly ruleQueries: RuleQueries;
  readonly health: HealthStore;
  /** The record of the Parquet history, and the reads and deletes that compaction and pruning make. */
  readonly history: HistoryStore;
  /**
   * Stores a page for `owner`, who must hold the day's lease: its rows (idempotently), the hourly
   * rollup counts of the new ones, its rejected entries in quarantine, and the ledger's progress
   * (checkpoint `nextToken`, the pass's counts, the day's totals, lease extended to now + leaseMs), in one
   * transaction. `lease-lost` (nothing stored) when another run holds the day now.
   */
  storePage(
    key: DayKey,
    owner: string,
    page: PageInput,
    now: number,
    leaseMs: number,
  ): Promise<PageStored | LeaseLost>;
  /**
   * Makes the archive ready for the days around `now` (PostgreSQL: creates the day partitions of today
   * and the next days ahead of the writes; SQLite: nothing). storePage also prepares any day it stores.
   */
  prepareAhead(now: number): Promise<void>;
  /**
   * Retention at `beforeMs` (a UTC day's start): removes the entries and quarantined entries fetched for
   * an earlier day, the rollup and term hours before it, and the history's record of those days, and
   * marks their ledger rows (retention_removed_at, at `now`). The history's parts of those days are
   * removed by the history (history/retention.ts), which calls this under its flush lease.
   */
  prune(beforeMs: number, now?: number): Promise<PruneResult>;
  /** Applies pending migrations (openStore already did); reports each file, never throws for one. */
  migrate(): Promise<MigrationResult[]>;
  /** Closes every connection; waits for work in flight. */
  close(): Promise<void>;
}
