// ingest_ledger on PostgreSQL: the same behaviour as the SQLite LedgerRepository (ledger-rules.ts), with
// leases that hold across hosts: a claim locks the day's row (SELECT … FOR UPDATE) in its transaction, and
// a lease expires by time alone (or when its holder is known to be gone).
import type pg from 'pg';
import { redact } from '../../redact.js';
import { decideClaim, keepArchivedSql, keepCompleteSql } from '../ledger-rules.js';
import type { Claim, DayKey, FinishState, LedgerRow, LogSource, StopState } from '../ledger-types.js';
import type { LedgerStore } from '../store.js';
import { transaction } from './transaction.js';
import { storableText } from './unstorable.js';

// A state the archive already reached is never taken back by a later pass (ledger-rules.ts).
const KEEP_ARCHIVED = (next: string) => keepArchivedSql('ingest_ledger.state', next);
const KEEP_COMPLETE = (next: string) => keepCompleteSql('ingest_ledger.state', next);

const WHERE = 'WHERE source = $1 AND zone_id = $2 AND log_date = $3';

/** A new pass: its counts start over, the day's totals stay. $4 owner, $5 now, $6 lease_until. */
const START_SET = `state = ${KEEP_ARCHIVED("'running'")}, pass_started_at = $5, next_token = '',
  pages = 0, entries = 0, new_entries = 0, malformed = 0, quarantined = 0, first_ts = NULL, last_ts = NULL,
  last_error = NULL, lease_owner = $4, lease_until = $6, updated_at = $5`;

const INSERT_START = `INSERT INTO ingest_ledger
    (source, zone_id, log_date, state, pass_started_at, next_token, lease_owner, lease_until, updated_at)
  VALUES ($1, $2, $3, 'running', $5, '', $4, $6, $5)
  ON CONFLICT (source, zone_id, log_date) DO NOTHING
  RETURNING *`;

const key3 = (k: DayKey) => [k.source, k.zone, k.day];

export class PostgresLedger implements LedgerStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(key: DayKey): Promise<LedgerRow | undefined> {
    const { rows } = await this.pool.query<LedgerRow>(`SELECT * FROM ingest_ledger ${WHERE}`, key3(key));
    return rows[0];
  }

  claim(
    key: DayKey,
    owner: string,
    now: number,
    leaseMs: number,
    resume: boolean,
    abandoned: (owner: string) => boolean = () => false,
  ): Promise<Claim> {
    const params = [...key3(key), owner, now, now + leaseMs];
    return transaction(this.pool, async (c): Promise<Claim> => {
      // A day never seen: the row is made, held by this owner. Two claims racing here meet on the
      // primary key: the second waits for the first to commit, inserts nothing, and locks the row below.
      const inserted = await c.query<LedgerRow>(INSERT_START, params);
      if (inserted.rows[0]) return { kind: 'claimed', resumed: false, row: inserted.rows[0] };
      const { rows } = await c.query<LedgerRow>(`SELECT * FROM ingest_ledger ${WHERE} FOR UPDATE`, key3(key));
      const decision = decideClaim(rows[0], owner, now, resume, abandoned);
      if (decision.kind === 'busy') return decision;
      const set =
        decision.kind === 'resume'
          ? `state = ${KEEP_ARCHIVED("'running'")}, lease_owner = $4, lease_until = $6, updated_at = $5`
          : START_SET;
      const updated = await c.query<LedgerRow>(
        `UPDATE ingest_ledger SET ${set} ${WHERE} RETURNING *`,
        params,
      );
      return { kind: 'claimed', resumed: decision.kind === 'resume', row: updated.rows[0]! };
    });
  }

  async renew(key: DayKey, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE ingest_ledger SET lease_until = $6, updated_at = $5 ${WHERE} AND lease_owner = $4`,
      [...key3(key), owner, now, now + leaseMs],
    );
    return r.rowCount === 1;
  }

  async finish(
    key: DayKey,
    owner: string,
    state: FinishState,
    coveredUntil: number,
    now: number,
  ): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE ingest_ledger SET
        state = ${KEEP_COMPLETE('$6::text')}, next_token = NULL,
        covered_until = greatest(coalesce(covered_until, 0), $7::bigint),
        last_error = NULL, lease_owner = NULL, lease_until = NULL, updated_at = $5, finished_at = $5
      ${WHERE} AND lease_owner = $4`,
      [...key3(key), owner, now, state, coveredUntil],
    );
    return r.rowCount === 1;
  }

  async stop(
    key: DayKey,
    owner: string,
    state: StopState,
    error: string | null,
    now: number,
    keepCheckpoint = state === 'running',
  ): Promise<void> {
    // Error text may quote what the API sent: no secret is stored (see redact.ts).
    const text = error === null ? null : storableText(redact(error));
    const expired = state === 'expired';
    await this.pool.query(
      `UPDATE ingest_ledger SET
        state = ${expired ? KEEP_COMPLETE('$6::text') : KEEP_ARCHIVED('$6::text')}, last_error = $7,
        lease_owner = NULL, lease_until = NULL, updated_at = $5,
        next_token = CASE WHEN $8::boolean THEN next_token ELSE NULL END
      ${WHERE} AND lease_owner = $4`,
      [...key3(key), owner, now, state, text, !expired && keepCheckpoint],
    );
  }

  async list(filter: { source?: LogSource; zone?: number } = {}): Promise<LedgerRow[]> {
    const { rows } = await this.pool.query<LedgerRow>(
      `SELECT * FROM ingest_ledger
       WHERE ($1::text IS NULL OR source = $1) AND ($2::bigint IS NULL OR zone_id = $2)
       ORDER BY source, zone_id, log_date DESC`,
      [filter.source ?? null, filter.zone ?? null],
    );
    return rows;
  }
}
