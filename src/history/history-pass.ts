// One pass over the history: flushes the store's newer rows into parts (flush.ts), compacts the days the
// planner picks (plan.ts), then prunes the compacted days older than history.hotDays and gives their
// space back. `edgelog compact` runs it by hand; the worker's history job runs it for one zone-day and
// its periodic sweep for every day.
import { addDays } from '../time/utc-day.js';
import { describeError } from '../errors/index.js';
import type { LogSource } from '../store/ledger-types.js';
import { compactDay, flushDeps, withDayLease, type HistoryDeps } from './compact-day.js';
import { flushHistory, type FlushResult } from './flush.js';
import { lastColdDay, planCompaction, planPruning, type DayFilter, type PlannedDay } from './plan.js';
import { pruneDay } from './prune-day.js';
import type { ReclaimResult } from '../store/history-store.js';

export interface PassOptions {
  filter?: DayFilter;
  /** history.hotDays; null keeps every row. */
  hotDays: number | null;
  originLookbackDays: number;
  /** Called as each day is planned (total), and after each day compacted. */
  onPlan?: (days: readonly PlannedDay[]) => void;
  onDay?: (day: PlannedDay, result: { entries: number; quarantined: number; bytes: number }) => void;
}

export interface PassSummary {
  /** What the flush did first (null: another flush held the lease). */
  flush: FlushResult | null;
  days: number;
  entries: number;
  quarantined: number;
  bytes: number;
  /** Days another worker held. */
  busy: number;
  pruned: { days: number; entries: number; quarantined: number };
  /**
   * Days due for pruning that another holder's lease kept this pass from (a live worker pruning them, or
   * a process killed meanwhile whose lease has not run out yet): a later pass prunes them.
   */
  pruneBusy: number;
  reclaimed: ReclaimResult | null;
  /**
   * Days a compaction or pruning failed for (a damaged part, a full disk), each with its error: the
   * others went on. `edgelog compact --verify` checks and repairs the history.
   */
  failed: Array<{ source: LogSource; zone: number; day: string; step: 'compact' | 'prune'; error: string }>;
}

/** A pass that did nothing: the summary a pass starts from. */
export function emptyPassSummary(): PassSummary {
  return {
    flush: null,
    days: 0,
    entries: 0,
    quarantined: 0,
    bytes: 0,
    busy: 0,
    pruned: { days: 0, entries: 0, quarantined: 0 },
    pruneBusy: 0,
    reclaimed: null,
    failed: [],
  };
}

export async function historyPass(deps: HistoryDeps, opts: PassOptions): Promise<PassSummary> {
  const summary = emptyPassSummary();
  const flushed = await flushHistory(flushDeps(deps));
  summary.flush = flushed.outcome === 'busy' ? null : flushed;
  const base = {
    now: deps.now(),
    originLookbackDays: opts.originLookbackDays,
    ...(opts.filter ? { filter: opts.filter } : {}),
  };
  const ledger = await deps.store.ledger.list();
  const days = planCompaction({ ...base, ledger, history: await deps.store.history.list() });
  opts.onPlan?.(days);
  for (const day of days) {
    let done;
    try {
      done = await withDayLease(deps, day, (lease) => compactDay(deps, lease));
    } catch (err) {
      summary.failed.push({ ...day, step: 'compact', error: describeError(err) });
      continue;
    }
    if (done === 'busy') {
      summary.busy++;
      continue;
    }
    summary.days++;
    summary.entries += done.entries;
    summary.quarantined += done.quarantined;
    summary.bytes += done.bytes;
    opts.onDay?.(day, done);
  }
  await prunePass(deps, opts, summary);
  return summary;
}

/** Prunes what may be pruned now (the hotDays rule) and reclaims the space; adds to `summary`. */
export async function prunePass(
  deps: HistoryDeps,
  opts: Pick<PassOptions, 'filter' | 'hotDays' | 'originLookbackDays'>,
  summary: Pick<PassSummary, 'pruned' | 'pruneBusy' | 'reclaimed' | 'failed'>,
): Promise<void> {
  const cold = lastColdDay(deps.now(), opts.hotDays);
  if (cold === null) return;
  const history = await deps.store.history.list();
  const plan = planPruning({
    now: deps.now(),
    ledger: await deps.store.ledger.list(),
    history,
    hotDays: opts.hotDays,
    originLookbackDays: opts.originLookbackDays,
    ...(opts.filter ? { filter: opts.filter } : {}),
  });
  const rows = new Map(history.map((h) => [`${h.source} ${h.zone_id} ${h.log_date}`, h]));
  for (const day of plan) {
    const row = rows.get(`${day.source} ${day.zone} ${day.day}`)!;
    let done;
    try {
      done = await withDayLease(deps, day, (lease) => pruneDay(deps, lease, row));
    } catch (err) {
      summary.failed.push({ ...day, step: 'prune', error: describeError(err) });
      continue;
    }
    if (done === 'busy' || done === 'fetching') {
      summary.pruneBusy++;
      continue;
    }
    summary.pruned.days++;
    summary.pruned.entries += done.entries;
    summary.pruned.quarantined += done.quarantined;
  }
  // Also when no day is left to prune: a process killed after pruning its last day and before dropping
  // the partitions that emptied left them to this pass.
  const reclaimed = await deps.store.history.reclaim(addDays(cold, 1));
  if (plan.length > 0 || reclaimed.dropped.length > 0) summary.reclaimed = reclaimed;
}
