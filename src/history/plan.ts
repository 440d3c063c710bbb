// Pure: which zone-days to compact into the history, and which compacted days' rows leave the store.
//
// A day is compacted once it is settled: its ledger says `complete`, or the API no longer serves it
// (Shield: today and the two days before, API-NOTES; origin logs publish no window, so a day the
// scheduler no longer fetches: older than schedule.originLookbackDays) whatever its state, unless a pass
// holds its lease now. A compacted day is compacted again when the ledger's totals moved since (a later
// pass added rows). Its rows leave the store once it is older than history.hotDays, compacted from the
// ledger totals it has now, and no longer fetched.
import type { HistoryDayRow } from '../store/history-store.js';
import type { LedgerRow, LogSource } from '../store/ledger-types.js';
import { addDays, dayOf, type Day } from '../time/utc-day.js';

/** Shield keeps today and the two days before (API-NOTES; as status/zone-health.ts). */
const SHIELD_SERVED_DAYS = 2;

export type LedgerFacts = Pick<
  LedgerRow,
  | 'source'
  | 'zone_id'
  | 'log_date'
  | 'state'
  | 'archived_entries'
  | 'quarantined_entries'
  | 'lease_owner'
  | 'lease_until'
  | 'retention_removed_at'
>;
export type HistoryFacts = Pick<
  HistoryDayRow,
  | 'source'
  | 'zone_id'
  | 'log_date'
  | 'compacted_at'
  | 'pruned_at'
  | 'ledger_entries'
  | 'ledger_quarantined'
  | 'part'
>;

export interface DayFilter {
  from?: Day | undefined;
  to?: Day | undefined;
  source?: LogSource | undefined;
  zones?: readonly number[] | undefined;
}

export interface PlanInput {
  now: number;
  ledger: readonly LedgerFacts[];
  history: readonly HistoryFacts[];
  /** schedule.originLookbackDays: origin days the scheduler still fetches. */
  originLookbackDays: number;
  filter?: DayFilter;
}

export interface PlannedDay {
  source: LogSource;
  zone: number;
  day: Day;
  /** `settled`: never compacted; `changed`: compacted, and a later pass changed the ledger's totals. */
  reason: 'settled' | 'changed';
}

const keyOf = (source: string, zone: number, day: string) => `${source} ${zone} ${day}`;

/** The last day of a source that is no longer fetched (served by the API, or planned). */
export function lastUnfetchedDay(source: LogSource, now: number, originLookbackDays: number): Day {
  const back = source === 'shield' ? SHIELD_SERVED_DAYS : originLookbackDays;
  return addDays(dayOf(now), -(back + 1));
}

function settled(row: LedgerFacts, now: number, originLookbackDays: number): boolean {
  if (row.log_date >= dayOf(now)) return false;
  // Retention removed it: nothing left to compact.
  if (row.retention_removed_at != null) return false;
  if (row.lease_owner !== null && row.lease_until !== null && row.lease_until > now) return false;
  if (row.state === 'complete') return true;
  return row.log_date <= lastUnfetchedDay(row.source, now, originLookbackDays);
}

function matches(row: { source: LogSource; zone_id: number; log_date: string }, f: DayFilter = {}): boolean {
  if (f.source !== undefined && row.source !== f.source) return false;
  if (f.zones !== undefined && f.zones.length > 0 && !f.zones.includes(row.zone_id)) return false;
  if (f.from !== undefined && row.log_date < f.from) return false;
  if (f.to !== undefined && row.log_date > f.to) return false;
  return true;
}

// A record without a part is one from before parts: the day is merged again (into one part) to get one.
const unchanged = (l: LedgerFacts, h: HistoryFacts) =>
  h.compacted_at !== null &&
  h.part !== null &&
  h.ledger_entries === l.archived_entries &&
  h.ledger_quarantined === l.quarantined_entries;

/** The zone-days to compact now, oldest day first (then source, zone). */
export function planCompaction(input: PlanInput): PlannedDay[] {
  const history = new Map(input.history.map((h) => [keyOf(h.source, h.zone_id, h.log_date), h]));
  const planned: PlannedDay[] = [];
  for (const row of input.ledger) {
    if (!matches(row, input.filter) || !settled(row, input.now, input.originLookbackDays)) continue;
    const h = history.get(keyOf(row.source, row.zone_id, row.log_date));
    if (h && unchanged(row, h)) continue;
    const reason = h?.compacted_at != null ? 'changed' : 'settled';
    planned.push({ source: row.source, zone: row.zone_id, day: row.log_date as Day, reason });
  }
  return planned.sort(
    (a, b) => a.day.localeCompare(b.day) || a.source.localeCompare(b.source) || a.zone - b.zone,
  );
}

export interface PruneInput {
  now: number;
  ledger: readonly LedgerFacts[];
  history: readonly HistoryFacts[];
  /** history.hotDays: whole days before today whose rows stay; null keeps every row. */
  hotDays: number | null;
  originLookbackDays: number;
  filter?: DayFilter;
}

/** The last day whose rows may leave the store (hotDays whole days before today stay), or null. */
export function lastColdDay(now: number, hotDays: number | null): Day | null {
  return hotDays === null ? null : addDays(dayOf(now), -(hotDays + 1));
}

/**
 * Compacted days whose rows may leave the store now, oldest first: older than hotDays, no longer
 * fetched, not yet pruned, and compacted from the ledger totals the day has now (else it is compacted
 * again first).
 */
export function planPruning(input: PruneInput): PlannedDay[] {
  const cold = lastColdDay(input.now, input.hotDays);
  if (cold === null) return [];
  const ledger = new Map(input.ledger.map((l) => [keyOf(l.source, l.zone_id, l.log_date), l]));
  const planned: PlannedDay[] = [];
  for (const h of input.history) {
    if (!matches(h, input.filter) || h.pruned_at !== null || h.log_date > cold) continue;
    if (h.log_date > lastUnfetchedDay(h.source, input.now, input.originLookbackDays)) continue;
    const l = ledger.get(keyOf(h.source, h.zone_id, h.log_date));
    if (!l || !unchanged(l, h)) continue;
    if (l.lease_owner !== null && l.lease_until !== null && l.lease_until > input.now) continue;
    planned.push({ source: h.source, zone: h.zone_id, day: h.log_date as Day, reason: 'settled' });
  }
  return planned.sort(
    (a, b) => a.day.localeCompare(b.day) || a.source.localeCompare(b.source) || a.zone - b.zone,
  );
}
