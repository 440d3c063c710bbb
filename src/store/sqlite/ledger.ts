// ingest_ledger: per (source, zone, day) the state of its archive, the checkpoint of the pass in
// progress, and the day's totals over every pass. The state rules are ledger-rules.ts's, which both
// dialects call.
import { redact } from '../../redact.js';
import { storableMessage } from '../../values/storable.js';
import { decideClaim, keepArchivedSql, keepCompleteSql } from '../ledger-rules.js';
import type { Db } from './database.js';

import type {
  Claim,
  DayKey,
  DayState,
  LedgerRow,
  LogSource,
  PageProgress,
  StopState,
} from '../ledger-types.js';

export type { Claim, DayKey, DayState, LedgerRow, LogSource, PageProgress, StopState };

// A state the archive already reached is never taken back by a later pass (ledger-rules.ts).
const KEEP_ARCHIVED = keepArchivedSql('state', '@state');
const KEEP_COMPLETE = keepCompleteSql('state', '@state');

export class LedgerRepository {
  private readonly select;
  private readonly upsertStart;
  private readonly resume;
  private readonly renewStmt;
  private readonly progress;
  private readonly finishStmt;
  private readonly stopStmt;
  private readonly expireStmt;

  private readonly expired;
  constructor(private readonly db: Db) {
    this.expired = db.prepare(`UPDATE ingest_ledger SET retention_removed_at = ?
      WHERE log_date < ? AND retention_removed_at IS NULL`);
    this.select = db.prepare('SELECT * FROM ingest_ledger WHERE source = ? AND zone_id = ? AND log_date = ?');
    const where = 'WHERE source = @source AND zone_id = @zone AND log_date = @day';
    this.upsertStart = db.prepare(`INSERT INTO ingest_ledger
        (source, zone_id, log_date, state, pass_started_at, next_token, lease_owner, lease_until, updated_at)
      VALUES (@source, @zone, @day, 'running', @now, '', @owner, @until, @now)
      ON CONFLICT (source, zone_id, log_date) DO UPDATE SET
        state = ${keepArchivedSql('state', "'running'")}, pass_started_at = @now, next_token = '',
        pages = 0, entries = 0, new_entries = 0, malformed = 0, quarantined = 0, first_ts = NULL, last_ts = NULL,
        last_error = NULL, lease_owner = @owner, lease_until = @until, updated_at = @now`);
    this.resume = db.prepare(`UPDATE ingest_ledger SET
        state = ${keepArchivedSql('state', "'running'")}, lease_owner = @owner, lease_until = @until,
        updated_at = @now ${where}`);
    this.renewStmt = db.prepare(`UPDATE ingest_ledger SET lease_until = @until, updated_at = @now
      ${where} AND lease_owner = @owner`);
    this.progress = db.prepare(`UPDATE ingest_ledger SET
        next_token = @nextToken, pages = pages + @pages, entries = entries + @entries,
        new_entries = new_entries + @inserted, malformed = malformed + @malformed,
        quarantined = quarantined + @quarantined,
        archived_entries = archived_entries + @inserted,
        quarantined_entries = quarantined_entries + @quarantineInserted,
        first_ts = min(coalesce(first_ts, @firstTs), coalesce(@firstTs, first_ts)),
        last_ts = max(coalesce(last_ts, @lastTs), coalesce(@lastTs, last_ts)),
        lease_until = @until, updated_at = @now
      ${where} AND lease_owner = @owner`);
    this.finishStmt = db.prepare(`UPDATE ingest_ledger SET
        state = ${KEEP_COMPLETE}, next_token = NULL, covered_until = max(coalesce(covered_until, 0), @coveredUntil),
        last_error = NULL, lease_owner = NULL, lease_until = NULL, updated_at = @now, finished_at = @now
      ${where} AND lease_owner = @owner`);
    this.stopStmt = db.prepare(`UPDATE ingest_ledger SET
        state = ${KEEP_ARCHIVED}, last_error = @error, lease_owner = NULL, lease_until = NULL, updated_at = @now,
        next_token = CASE WHEN @keepCheckpoint THEN next_token ELSE NULL END
      ${where} AND lease_owner = @owner`);
    this.expireStmt = db.prepare(`UPDATE ingest_ledger SET
        state = ${KEEP_COMPLETE}, last_error = @error, lease_owner = NULL, lease_until = NULL, updated_at = @now,
        next_token = NULL
      ${where} AND lease_owner = @owner`);
  }

  /** Retention: records that the days before `beforeDay` no longer hold their entries anywhere. */
  markExpired(beforeDay: string, now: number): number {
    return this.expired.run(now, beforeDay).changes;
  }

  get(key: DayKey): LedgerRow | undefined {
    return this.select.get(key.source, key.zone, key.day) as LedgerRow | undefined;
  }

  /**
   * Takes the day for `owner` unless someone else holds a live lease. An unfinished pass (one with a
   * checkpoint) is resumed when `resume` allows it; otherwise a new pass starts from the first page.
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
        const decision = decideClaim(this.get(key), owner, now, resume, abandoned);
        if (decision.kind === 'busy') return decision;
        const params = { ...key, owner, now, until: now + leaseMs };
        if (decision.kind === 'resume') {
          this.resume.run(params);
          return { kind: 'claimed', resumed: true, row: this.get(key)! };
        }
        this.upsertStart.run(params);
        return { kind: 'claimed', resumed: false, row: this.get(key)! };
      })
      .immediate();
  }

  /** Extends `owner`'s lease. False if it no longer holds the day. */
  renew(key: DayKey, owner: string, now: number, leaseMs: number): boolean {
    return this.renewStmt.run({ ...key, owner, now, until: now + leaseMs }).changes === 1;
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
   * Ends or pauses a pass that did not reach the end and releases the lease. The checkpoint is kept
   * when a later pass may resume from it (`running`, or a failure that was retryable); `incomplete`
   * and `expired` drop it. A complete day stays complete, a partial one partial (but for `expired`).
   */
  stop(
    key: DayKey,
    owner: string,
    state: StopState,
    error: string | null,
    now: number,
    keepCheckpoint = state === 'running',
  ): void {
    // Error text may quote what the API sent: no secret is stored (see redact.ts).
    const text = error === null ? null : storableMessage(redact(error));
    if (state === 'expired') {
      this.expireStmt.run({ ...key, owner, state, error: text, now });
      return;
    }
    this.stopStmt.run({ ...key, owner, state, error: text, now, keepCheckpoint: keepCheckpoint ? 1 : 0 });
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
