// Per configured zone, from the ledger and the entry tables at scrape time: the last complete day, the
// newest archived entry, the ingestion lag and the days at risk. Prepared once; each read is an index
// lookup or a scan of the ledger's few rows per zone.
import type { Db } from '../store/database.js';
import type { DayState, LogSource } from '../store/ledger.repository.js';
import { addDays, dayEndMs, dayOf, type Day } from '../time/utc-day.js';
import { daysAtRisk } from './at-risk.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';

export interface LedgerCollectorOptions {
  db: Db;
  now: () => number;
  pullZones: readonly number[];
  shieldZones: readonly number[];
  schedule: {
    originLookbackDays: number;
    shieldLookbackDays: number;
    finalizeDelay: number;
    refreshEvery: number;
  };
}

interface ZoneSummary {
  source: LogSource;
  zone_id: number;
  last_complete: string | null;
  covered_until: number | null;
}

export function ledgerCollector(m: MetricSet, opts: LedgerCollectorOptions): Collector {
  const { db } = opts;
  const summaries = db.prepare(`SELECT source, zone_id,
      max(CASE WHEN state = 'complete' THEN log_date END) AS last_complete, max(covered_until) AS covered_until
    FROM ingest_ledger GROUP BY source, zone_id`);
  const recent = db.prepare('SELECT source, zone_id, log_date, state FROM ingest_ledger WHERE log_date >= ?');
  // Served by the unique (zone, timestamp, log_id) index: one lookup per zone.
  const newest = {
    origin: db.prepare('SELECT max(timestamp) FROM origin_error_logs WHERE pull_zone_id = ?').pluck(),
    shield: db.prepare('SELECT max(timestamp) FROM shield_event_logs WHERE shield_zone_id = ?').pluck(),
  };
  const sources = [
    { source: 'origin', zones: opts.pullZones, lookback: opts.schedule.originLookbackDays },
    { source: 'shield', zones: opts.shieldZones, lookback: opts.schedule.shieldLookbackDays },
  ] as const;
  const longest = Math.max(opts.schedule.originLookbackDays, opts.schedule.shieldLookbackDays);

  return {
    name: 'ledger',
    collect() {
      const now = opts.now();
      const byZone = new Map(
        (summaries.all() as ZoneSummary[]).map((r) => [`${r.source} ${r.zone_id}`, r] as const),
      );
      const states = new Map<string, Map<string, DayState>>();
      const since = addDays(dayOf(now), -longest);
      for (const r of recent.all(since) as Array<{
        source: LogSource;
        zone_id: number;
        log_date: string;
        state: DayState;
      }>) {
        const key = `${r.source} ${r.zone_id}`;
        if (!states.has(key)) states.set(key, new Map());
        states.get(key)!.set(r.log_date, r.state);
      }
      for (const g of [m.lastCompleteDay, m.newestEntry, m.ingestionLag, m.daysAtRisk]) g.reset();
      for (const { source, zones, lookback } of sources) {
        for (const zone of zones) {
          const labels = { source, zone: String(zone) };
          const summary = byZone.get(`${source} ${zone}`);
          if (summary?.last_complete) {
            m.lastCompleteDay.set(labels, dayEndMs(summary.last_complete as Day) / 1000);
          }
          const ts = newest[source].get(zone) as number | null;
          if (ts !== null) m.newestEntry.set(labels, ts / 1000);
          const covered = summary?.covered_until ?? null;
          m.ingestionLag.set(labels, covered === null ? Infinity : Math.max(0, now - covered) / 1000);
          const risky = daysAtRisk({
            now,
            lookbackDays: lookback,
            finalizeDelayMs: opts.schedule.finalizeDelay,
            refreshEveryMs: opts.schedule.refreshEvery,
            states: states.get(`${source} ${zone}`) ?? new Map(),
          });
          m.daysAtRisk.set(labels, risky.length);
        }
      }
    },
  };
}
