// ingest_ledger: per (source, zone, day) state and the checkpoint of the pass in progress.
import type { Db } from './database.js';

export type LogSource = 'origin' | 'shield';
export type DayState = 'running' | 'partial' | 'complete' | 'failed' | 'expired';

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
  first_ts: number | null;
  last_ts: number | null;
  covered_until: number | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  updated_at: number;
  finished_at: number | null;
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
  entries: number;
  inserted: number;
  malformed: number;
  firstTs: number | null;
  lastTs: number | null;
}

export class LedgerRepository {
  private readonly select;
  private readonly upsertStart;
  private readonly renew;
  private readonly progress;
  private readonly finishStmt;
  private readonly stopStmt;

  constructor(private readonly db: Db) {
    this.select = db.prepare('SELECT * FROM ingest_ledger WHERE source = ? AND zone_id = ? AND log_date = ?');
    this.upsertStart = db.prepare(`INSERT INTO ingest_ledger
        (source, zone_id, log_date, state, pass_started_at, next_token, pages, entries, new_entries, malformed,
         first_ts, last_ts, last_error, lease_owner, lease_until, updated_at)
      VALUES (@source, @zone, @day, 'running', @now, '', 0, 0, 0, 0, NULL, NULL, NULL, @owner, @until, @now)
      ON CONFLICT (source, zone_id, log_date) DO UPDATE SET
        state = 'running', pass_started_at = @now, next_token = '', pages = 0, entries = 0, new_entries = 0,
        malformed = 0, first_ts = NULL, last_ts = NULL, last_error = NULL,
        lease_owner = @owner, lease_until = @until, updated_at = @now`);
    this.renew =
      db.prepare(`UPDATE ingest_ledger SET lease_owner = @owner, lease_until = @until, updated_at = @now
      WHERE source = @source AND zone_id = @zone AND log_date = @day`);
    this.progress = db.prepare(`UPDATE ingest_ledger SET
        next_token = @nextToken, pages = pages + @pages, entries = entries + @entries, new_entries = new_entries + @inserted,
        malformed = malformed + @malformed,
        first_ts = min(coalesce(first_ts, @firstTs), coalesce(@firstTs, first_ts)),
        last_ts = max(coalesce(last_ts, @lastTs), coalesce(@lastTs, last_ts)),
        lease_until = @until, updated_at = @now
      WHERE source = @source AND zone_id = @zone AND log_date = @day AND lease_owner = @owner`);
    this.finishStmt = db.prepare(`UPDATE ingest_ledger SET
        state = @state, next_token = NULL, covered_until = max(coalesce(covered_until, 0), @coveredUntil),
        last_error = NULL, lease_owner = NULL, lease_until = NULL, updated_at = @now, finished_at = @now
      WHERE source = @source AND zone_id = @zone AND log_date = @day AND lease_owner = @owner`);
    this.stopStmt = db.prepare(`UPDATE ingest_ledger SET
        state = @state, last_error = @error, lease_owner = NULL, lease_until = NULL, updated_at = @now,
        next_token = CASE WHEN @keepCheckpoint THEN next_token ELSE NULL END
      WHERE source = @source AND zone_id = @zone AND log_date = @day AND lease_owner = @owner`);
  }

  get(key: DayKey): LedgerRow | undefined {
    return this.select.get(key.source, key.zone, key.day) as LedgerRow | undefined;
  }

  /**
   * Takes the day for `owner` unless someone else holds a live lease. An unfinished pass (state running
   * with a checkpoint) is resumed when `resume` allows it; otherwise a new pass starts from the first page.
   */
  claim(
    key: DayKey,
    owner: string,
    now: number,
    leaseMs: number,
    resume: boolean,
    /** True when a lease holder is known to be gone (its process died): its lease is taken at once. */
    abandoned: (owner: string) => boolean = () => false,
  ): Claim {
    return this.db
      .transaction((): Claim => {
        const row = this.get(key);
        const held =
          row && row.lease_owner !== null && row.lease_owner !== owner && (row.lease_until ?? 0) > now;
        if (held && !abandoned(row.lease_owner!)) {
          return { kind: 'busy', owner: row.lease_owner!, until: row.lease_until ?? now };
        }
        const params = { ...key, owner, now, until: now + leaseMs };
        if (resume && row && row.state === 'running' && row.next_token !== null && row.pages > 0) {
          this.renew.run(params);
          return { kind: 'claimed', resumed: true, row: this.get(key)! };
        }
        this.upsertStart.run(params);
        return { kind: 'claimed', resumed: false, row: this.get(key)! };
      })
      .immediate();
  }

  /** Records one stored page; call inside the page's transaction. False if the lease was lost. */
  recordPage(key: DayKey, owner: string, p: PageProgress, now: number, leaseMs: number): boolean {
    return this.progress.run({ ...key, ...p, owner, now, until: now + leaseMs }).changes === 1;
  }

  /** Ends a pass that reached the end of the day's data. False if `owner` no longer holds the day. */
  finish(
    key: DayKey,
    owner: string,
    state: 'partial' | 'complete',
    coveredUntil: number,
    now: number,
  ): boolean {
    return this.finishStmt.run({ ...key, owner, state, coveredUntil, now }).changes === 1;
  }

  /**
   * Ends or pauses a pass without finishing it and releases the lease. `running` keeps the checkpoint
   * so a retry resumes; `failed` and `expired` drop it.
   */
  stop(
    key: DayKey,
    owner: string,
    state: 'running' | 'failed' | 'expired',
    error: string | null,
    now: number,
  ): void {
    this.stopStmt.run({ ...key, owner, state, error, now, keepCheckpoint: state === 'running' ? 1 : 0 });
  }

  /** Every row, optionally for one source and zone, newest days first. */
  list(filter: { source?: LogSource; zone?: number } = {}): LedgerRow[] {
    return this.db
      .prepare(
        `SELECT * FROM ingest_ledger
         WHERE (@source IS NULL OR source = @source) AND (@zone IS NULL OR zone_id = @zone)
         ORDER BY source, zone_id, log_date DESC`,
      )
      .all({ source: filter.source ?? null, zone: filter.zone ?? null }) as LedgerRow[];
  }
}
