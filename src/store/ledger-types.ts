// The ingestion ledger's types, shared by every store (SQLite, PostgreSQL) and their callers.
//
// One row per (source, zone, day): the state of its archive, the checkpoint of the pass in progress, and
// the day's totals over every pass. The state rules (which a store must keep exactly) are in
// ledger-rules.ts.

export type LogSource = 'origin' | 'shield';
export type DayState = 'running' | 'partial' | 'complete' | 'incomplete' | 'failed' | 'expired';

export interface LedgerRow {
  source: LogSource;
  zone_id: number;
  log_date: string;
  state: DayState;
  pass_started_at: number | null;
  next_token: string | null;
  pages: number;
  entries: number;
  new_entries: number;
  malformed: number;
  quarantined: number;
  first_ts: number | null;
  last_ts: number | null;
  archived_entries: number;
  quarantined_entries: number;
  covered_until: number | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  updated_at: number;
  finished_at: number | null;
  /** ms: when retention removed the day's entries from the store and the history; null while kept. */
  retention_removed_at: number | null;
}

export interface DayKey {
  source: LogSource;
  zone: number;
  day: string;
}

export type Claim =
  | { kind: 'busy'; owner: string; until: number }
  /** `resumed` is true when an unfinished pass continues from its checkpoint (`row.next_token`). */
  | { kind: 'claimed'; resumed: boolean; row: LedgerRow };

export interface PageProgress {
  nextToken: string | null;
  /** API calls this progress covers (an origin day's later chunks add 0). */
  pages: number;
  /** Entries the API sent (stored, already archived, or quarantined). */
  entries: number;
  /** Rows added to the entry table. */
  inserted: number;
  malformed: number;
  /** Entries that could not be keyed. */
  quarantined: number;
  /** Of which were added to quarantined_entries now. */
  quarantineInserted: number;
  firstTs: number | null;
  lastTs: number | null;
}

/** How a pass ended without reaching the end of the day's data. */
export type StopState = 'running' | 'failed' | 'incomplete' | 'expired';

/** How a pass ended that reached the end of the day's data. */
export type FinishState = 'partial' | 'complete';
