// Pure: the ledger's state rules, which every store keeps exactly.
//
// States say what the archive holds, and a later pass never makes them say less: `complete` stays
// complete whatever a re-run meets (its error is still recorded in last_error), and `partial` stays
// partial unless a pass completes the day or the API no longer serves it (`expired`). Otherwise the last
// pass decides: `running` (in progress or interrupted; the checkpoint is kept), `failed`, `incomplete`
// (the API's paging broke off; what it sent is stored), `expired`.
import type { DayState, LedgerRow } from './ledger-types.js';

/** The states a new, resumed or stopped pass (but `expired`) keeps: what the archive already holds. */
const ARCHIVED: readonly DayState[] = ['complete', 'partial'];
/** The state a finished pass, or `expired`, keeps. */
const COMPLETE: readonly DayState[] = ['complete'];

/** A new pass, a resumed one, or a stopped one (but `expired`): an archived state is kept. */
export function keepArchived(current: DayState, next: DayState): DayState {
  return ARCHIVED.includes(current) ? current : next;
}

/** A finished pass, or `expired`: only `complete` is kept. */
export function keepComplete(current: DayState, next: DayState): DayState {
  return COMPLETE.includes(current) ? current : next;
}

// The same two rules as SQL, for the statements of both dialects (sqlite/ledger.ts, postgres/ledger.ts):
// `column` is the row's current state, `next` an SQL expression of the state the pass ends in.
const keepSql = (kept: readonly DayState[]) => (column: string, next: string) =>
  `CASE WHEN ${column} IN (${kept.map((s) => `'${s}'`).join(', ')}) THEN ${column} ELSE ${next} END`;

/** SQL: whether `column` holds a state the archive already reached (a successful pass: complete, partial). */
export const archivedSql = (column: string) => `${column} IN (${ARCHIVED.map((s) => `'${s}'`).join(', ')})`;

/** keepArchived as an SQL expression. */
export const keepArchivedSql = keepSql(ARCHIVED);
/** keepComplete as an SQL expression. */
export const keepCompleteSql = keepSql(COMPLETE);

export type ClaimDecision =
  | { kind: 'busy'; owner: string; until: number }
  /** Continue the unfinished pass from its checkpoint. */
  | { kind: 'resume' }
  /** Start a new pass from the first page (the row is created when absent). */
  | { kind: 'start' };

/**
 * Whether `owner` may take the day: not while someone else holds a live lease (one whose `lease_until`
 * is still ahead), unless that holder is known to be gone. An unfinished pass (a checkpoint and at least
 * one page) is resumed when `resume` allows it.
 */
export function decideClaim(
  row: Pick<LedgerRow, 'lease_owner' | 'lease_until' | 'next_token' | 'pages'> | undefined,
  owner: string,
  now: number,
  resume: boolean,
  abandoned: (owner: string) => boolean,
): ClaimDecision {
  if (row && row.lease_owner !== null && row.lease_owner !== owner && (row.lease_until ?? 0) > now) {
    if (!abandoned(row.lease_owner)) {
      return { kind: 'busy', owner: row.lease_owner, until: row.lease_until ?? now };
    }
  }
  if (resume && row && row.next_token !== null && row.pages > 0) return { kind: 'resume' };
  return { kind: 'start' };
}

/**
 * The state after a pass that ended in `next` over a day in `current`: a finished pass (`partial`,
 * `complete`) or `expired` keeps only `complete`; any other end keeps an archived state.
 */
export function stateAfter(current: DayState, next: DayState): DayState {
  return next === 'partial' || next === 'complete' || next === 'expired'
    ? keepComplete(current, next)
    : keepArchived(current, next);
}

/** What an archive holds of a day, counted from its tables. */
export interface DayHeld {
  /** Rows of the day's entry table. */
  archived: number;
  /** Rows of quarantined_entries. */
  quarantined: number;
}

/**
 * One day's rows of two archives whose entries are now in one (migrate-store copies the source's into
 * the target): as if the pass of the row written last (by `updated_at`; the target's on a tie) had run
 * after the other's. So its state follows `stateAfter`, its pass (checkpoint, counts, error) is that row's,
 * and what only grows (`covered_until`, `finished_at`, `updated_at`) is the larger of the two. The day's
 * totals are what the archive now holds of it (`held`), or the larger total a side recorded when that is
 * more (retention removes rows, not the count of those a day added). No lease is kept: the target's
 * workers are stopped (migrate-store refuses live leases), and the source's belong to another host.
 */
export function mergeDay(target: LedgerRow | undefined, source: LedgerRow, held: DayHeld): LedgerRow {
  const [older, newer] =
    target === undefined || target.updated_at >= source.updated_at
      ? [source, target ?? source]
      : [target, source];
  const both = target === undefined ? [source] : [target, source];
  return {
    ...newer,
    state: newer === older ? newer.state : stateAfter(older.state, newer.state),
    covered_until: largest(both.map((r) => r.covered_until)),
    finished_at: largest(both.map((r) => r.finished_at)),
    updated_at: Math.max(...both.map((r) => r.updated_at)),
    archived_entries: Math.max(held.archived, ...both.map((r) => r.archived_entries)),
    quarantined_entries: Math.max(held.quarantined, ...both.map((r) => r.quarantined_entries)),
    lease_owner: null,
    lease_until: null,
  };
}

function largest(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.max(...known);
}
