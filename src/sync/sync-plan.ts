// Pure: the day jobs `edgelog sync` asks for, from its options, the configured zones and the time.
import type { Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import type { DayJob } from '../queue/jobs.js';
import type { LogSource } from '../store/store.js';
import { dayOf, dayRange, type Day } from '../time/utc-day.js';

export type SyncSource = LogSource | 'guardian';

/** The days, sources and zones asked for (the command's options). */
export interface SyncAsk {
  date?: Day | undefined;
  from?: Day | undefined;
  to?: Day | undefined;
  source?: SyncSource[] | undefined;
  zone?: number[] | undefined;
}

export interface SyncPlan {
  days: DayJob[];
  guardianZones: number[];
}

/**
 * Pure: the day jobs a sync asks for. Throws UsageError for contradictory options, days in the future
 * or unknown zones.
 */
export function syncPlan(
  config: Pick<Config, 'pullZones' | 'shieldZones'>,
  opts: SyncAsk,
  now: number,
): SyncPlan {
  if (opts.date && (opts.from || opts.to)) throw new UsageError('use either --date or --from/--to, not both');
  const today = dayOf(now);
  // A day that has not begun has no logs: syncing it would only leave `partial` rows in the ledger.
  for (const [flag, day] of Object.entries({ '--date': opts.date, '--from': opts.from, '--to': opts.to })) {
    if (day && day > today) throw new UsageError(`${flag} ${day} is in the future (today is ${today}, UTC)`);
  }
  const from = opts.date ?? opts.from ?? opts.to ?? today;
  const to = opts.date ?? opts.to ?? (opts.from ? today : from);
  const days = dayRange(from, to);
  if (days.length === 0) throw new UsageError(`--from ${from} is after --to ${to}`);
  if (days.length > 366) throw new UsageError(`${days.length} days asked for; sync at most 366 at a time`);
  const sources = opts.source ?? ['origin', 'shield'];
  const zonesOf = (source: SyncSource) =>
    (source === 'origin' ? config.pullZones : config.shieldZones).map((z) => z.id);
  if (opts.zone) {
    const configured = new Set(sources.flatMap(zonesOf));
    const unknown = opts.zone.filter((z) => !configured.has(z));
    if (unknown.length > 0) {
      throw new UsageError(
        `zone ${unknown.join(', ')} is not configured for ${sources.join('/')} (configured: ${[...configured].join(', ') || 'none'})`,
      );
    }
  }
  const pick = (source: SyncSource) => zonesOf(source).filter((z) => !opts.zone || opts.zone.includes(z));
  // Oldest day first, across every zone: Shield days leave the API's window in that order, and the
  // smallest jobs (today's partial day) come last, where they fill the queue's tail.
  const jobs: DayJob[] = [];
  for (const day of days) {
    for (const source of sources) {
      if (source === 'guardian') continue;
      for (const zone of pick(source)) jobs.push({ source, zone, day, reason: 'sync' });
    }
  }
  return { days: jobs, guardianZones: sources.includes('guardian') ? pick('guardian') : [] };
}
