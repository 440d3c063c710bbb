// Pure: the ledger's state rules, which every store keeps exactly.
//
// States say what the archive holds, and a later pass never makes them say less: `complete` stays
// complete whatever a re-run meets (its error is still recorded in last_error), and `partial` stays
// partial unless a pass completes the day or the API no longer serves it (`expired`). Otherwise the last
// pass decides: `running` (in progress or interrupted; the checkpoint is kept), `failed`, `incomplete`
// (the API's paging broke off; what it sent is stored), `expired`.
import type { DayState, LedgerRow } from './ledger-types.js';

/** A new pass, a resumed one, or a stopped one (but `expired`): an archived state is kept. */
export function keepArchived(current: DayState, next: DayState): DayState {
  return current === 'complete' || current === 'partial' ? current : next;
}

/** A finished pass, or `expired`: only `complete` is kept. */
export function keepComplete(current: DayState, next: DayState): DayState {
  return current === 'complete' ? current : next;
}

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
