// The store's side of the Parquet history (src/history/): its record of the days compacted (history_days),
// a day's rows read page by page in the files' column order, and the rows of days in history removed by
// key. Both stores implement it alike (sqlite/history.ts, postgres/history.ts).
import type { LogSource } from './ledger-types.js';
import type { HistoryTable } from './history-columns.js';

/** A cell as a store reads it: integers as numbers (PostgreSQL) or bigints (SQLite), text, NULL. */
export type HistoryValue = string | number | bigint | null;

export interface HistoryDayKey {
  source: LogSource;
  zone: number;
  day: string;
}

/** history_days (migrations/sqlite/0006_history.sql explains each column). */
export interface HistoryDayRow {
  source: LogSource;
  zone_id: number;
  log_date: string;
  entries: number | null;
  quarantined: number | null;
  bytes: number | null;
  checksum: string | null;
  quarantine_checksum: string | null;
  ledger_entries: number | null;
  ledger_quarantined: number | null;
  compacted_at: number | null;
  pruned_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  /** The entry part the record describes (history/parts.ts; '' without entries); null before parts. */
  part: string | null;
  /** The quarantine part the record describes ('' without quarantined entries); null before parts. */
  quarantine_part: string | null;
  /** Entries a damaged or lost part of the (pruned) day held: gone (history/verify.ts). */
  lost_entries: number | null;
  lost_at: number | null;
}

/** What a merge verified and published. */
export interface HistoryRecord {
  /** The entry part's file name ('' when the day has no entries). */
  part: string;
  /** The quarantine part's file name ('' when the day has no quarantined entries). */
  quarantinePart: string;
  entries: number;
  quarantined: number;
  bytes: number;
  checksum: string;
  quarantineChecksum: string;
  /** The ledger's totals the files were made from. */
  ledgerEntries: number;
  ledgerQuarantined: number;
}

/**
 * A page of a zone-day's rows as the history writes them. Each row crosses once, as the text of a JSON
 * array of its values in the file's columns (history-columns.ts: integers as JSON numbers, text as JSON
 * strings, NULL as null), built by the store's own engine; DuckDB parses the lines (one native call per
 * page instead of one per value: history/day-file.ts). Beside it, the row's key columns as values, from
 * which the compactor computes the checksum the file must match: a row mangled on its way through JSON
 * does not verify.
 */
export interface HistoryPage {
  /** Per row, the shape's `key` columns in that order. */
  keys: HistoryValue[][];
  /** The rows' JSON arrays, in the page's order, each followed by a newline. */
  lines: string;
  /** The length (UTF-16 code units) of the longest of them. */
  longest: number;
}

/**
 * A page of rows as bytes (SQLite's flush pages): their JSON lines as HistoryPage's, and their keys framed
 * as the part's key read-back frames them (`<UTF-8 bytes>:<key text>\n`, the text as KeyChecksum joins a
 * key: history/key-readback.ts), each built by the store's engine as one value for the whole page. No
 * JavaScript value is made per row or cell: the lines go to the file as they came, and the keys are hashed
 * from their bytes. The keys are still the store's columns, apart from the lines: a row mangled on its
 * way through JSON does not verify.
 */
export interface HistoryBytesPage {
  /** How many rows it holds (the store's count, held against the keys' frames). */
  rows: number;
  lines: Uint8Array;
  keyLines: Uint8Array;
  /** The UTF-8 bytes of the longest line. */
  longestBytes: number;
}

/** Timestamps [fromMs, toMs) an entry page is looked for in (the day's rows are there in practice). */
export interface TimeBounds {
  fromMs: number;
  toMs: number;
}

/** A zone-day holding rows a flush is to write (the quarantine's carry their source). */
export interface FlushDay {
  zone: number;
  day: string;
  source?: LogSource;
}

/** A zone-day and how many of its rows a query counted. */
export interface FlushDayRows extends FlushDay {
  rows: number;
}

/** Where a flush page ends: the (batch, id) of its last row; the next page starts after it. */
export type FlushCursor = readonly [batch: bigint, id: bigint];

/** A page of a flush: its rows as values and text (PostgreSQL) or as bytes (SQLite). */
export type FlushPage = (HistoryPage | HistoryBytesPage) & {
  /** How many rows it holds. */
  rows: number;
  /** The last row's cursor, null for an empty page. */
  last: FlushCursor | null;
};

/** What the history's flush reads of the store (history/flush.ts): rows by write batch. */
export interface FlushStore {
  /**
   * Takes the flush's lease (history_flush) for `owner` unless another owner holds a live one: one flush
   * at a time, on any host.
   */
  claim(owner: string, now: number, leaseMs: number): Promise<boolean>;
  release(owner: string): Promise<void>;
  /** Records the watermark a flush reached (status and metrics read it; readers go by the history's). */
  record(owner: string, below: bigint, now: number): Promise<void>;
  /**
   * The flush horizon: every write batch below it has committed, and none taken later is below it
   * (SQLite: one writer; PostgreSQL: waits for the page transactions holding a number).
   */
  horizon(): Promise<bigint>;
  /** How many rows of `table` are of a batch at or above `from` (what readers read from the store). */
  rowsFrom(table: HistoryTable, from: bigint): Promise<number>;
  /** The zone-days of `table` with rows of the batches [from, below). */
  days(table: HistoryTable, from: bigint, below: bigint): Promise<FlushDay[]>;
  /**
   * The zone-days of `table` with rows stored before batches existed (batch NULL) or of a batch below
   * `below`, with how many: what the first flush, which converts an older archive, writes, and what
   * `compact --verify` holds against the parts (history/verify.ts).
   */
  daysBefore(table: HistoryTable, below: bigint): Promise<FlushDayRows[]>;
  /**
   * Up to `limit` rows of a zone-day (as entryPage's) of the batches [from, below), in (batch, id) order
   * after `after` (null: from the first).
   */
  page(
    table: HistoryTable,
    day: FlushDay,
    from: bigint,
    below: bigint,
    after: FlushCursor | null,
    limit: number,
  ): Promise<FlushPage>;
}

export interface HistoryStore {
  /** history_days, optionally of one source and zone, by source, zone and day. */
  list(filter?: { source?: LogSource; zone?: number }): Promise<HistoryDayRow[]>;
  /**
   * Takes the day's history lease for `owner` (a row is made if there is none) unless another owner
   * holds a live one: only its holder compacts, publishes, records or prunes the day. Two claims racing,
   * from any host, end with at most one holder.
   */
  claim(key: HistoryDayKey, owner: string, now: number, leaseMs: number): Promise<boolean>;
  /** Releases `owner`'s lease (nothing when it no longer holds it). */
  release(key: HistoryDayKey, owner: string): Promise<void>;
  /**
   * Records a verified publication, if `owner` still holds the lease; false otherwise (nothing kept).
   * Whether the day is pruned is left as it is (only putting its rows back in the store clears it).
   */
  record(key: HistoryDayKey, owner: string, rec: HistoryRecord, now: number): Promise<boolean>;
  /** Records that the day's rows left the store, if `owner` still holds the lease. */
  markPruned(key: HistoryDayKey, owner: string, now: number): Promise<boolean>;
  /**
   * Up to `limit` entry rows of the zone-day (a HistoryPage), ordered by (timestamp, log_id) in the
   * store's key order (SQLite: bytes; PostgreSQL: the column's collation, its key index's), after the row
   * whose (timestamp, log_id) is `after`; within `bounds` when given; with `below`,
   * only rows of a batch below it or of none (the first flush's).
   */
  entryPage(
    key: HistoryDayKey,
    after: readonly [number | bigint, string] | null,
    limit: number,
    bounds: TimeBounds | null,
    below?: bigint,
  ): Promise<HistoryPage>;
  /** The same for the day's quarantined entries, ordered by (page, position, raw_hash). */
  quarantinePage(
    key: HistoryDayKey,
    after: readonly [number | bigint, number | bigint, string] | null,
    limit: number,
    below?: bigint,
  ): Promise<HistoryPage>;
  /** The rows by write batch, for the flush. */
  readonly flush: FlushStore;
  /**
   * Puts rows of a pruned zone-day back in the store, from its parts, before the day is fetched again
   * (history/thaw.ts): `rows` in `table`'s file columns (history-columns.ts), stored with batch 0 (in
   * the history already: below every watermark, never flushed again, never counted again). A row whose
   * key is there already is left. Returns how many were put back.
   */
  restore(key: HistoryDayKey, table: HistoryTable, rows: readonly HistoryValue[][]): Promise<number>;
  /** Records entries lost with a damaged part of a pruned day (history/verify.ts), if `owner` holds the lease. */
  markLost(key: HistoryDayKey, owner: string, entries: number, now: number): Promise<boolean>;
  /** Records that the day's rows are in the store again (pruned_at cleared), if `owner` holds the lease. */
  unprune(key: HistoryDayKey, owner: string): Promise<boolean>;
  /** Deletes the zone-day's entries with these keys, in one transaction; returns how many went. */
  deleteEntries(key: HistoryDayKey, keys: { timestamp: number[]; logId: string[] }): Promise<number>;
  /** Deletes the zone-day's quarantined entries with these keys, in one transaction. */
  deleteQuarantined(
    key: HistoryDayKey,
    keys: { page: number[]; position: number[]; rawHash: string[] },
  ): Promise<number>;
  /**
   * Gives the space of pruned rows back: SQLite returns free pages to the file system (incremental
   * auto-vacuum, where the file has it), PostgreSQL drops the day partitions before `beforeDay` left
   * empty. Bounded: at most `maxPages` pages (SQLite) per call.
   */
  reclaim(beforeDay: string, maxPages?: number): Promise<ReclaimResult>;
}

export interface ReclaimResult {
  /** SQLite: the file's size before and after; PostgreSQL: null. */
  fileBytes: { before: number; after: number } | null;
  /** PostgreSQL: the partitions dropped. */
  dropped: string[];
}
