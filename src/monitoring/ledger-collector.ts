// Per configured zone, from the ledger and the entry tables at scrape time: the last complete day, the
// newest archived entry, the ingestion lag and the days at risk. Prepared once; each read is an index
// lookup or a scan of the ledger's few rows per zone, and the newest entries of all zones are one read.
import type { DayState, LedgerStore, NewestEntries } from '../store/store.js';
import { addDays, dayEndMs, dayOf, type Day } from '../time/utc-day.js';
import { daysAtRisk } from './at-risk.js';
import type { Collector } from './collect.js';
import type { MetricSet } from './definitions.js';
import { zoneKey } from '../store/archive-reads.js';

export interface LedgerCollectorOptions {
  ledger: Pick<LedgerStore, 'list'>;
  /** The newest archived entry's timestamp of every zone (store.health.newestEntries). */
  newest: NewestEntries;
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

export function ledgerCollector(m: MetricSet, opts: LedgerCollectorOptions): Collector {
  const sources = [
    { source: 'origin', zones: opts.pullZones, lookback: opts.schedule.originLookbackDays },
    { source: 'shield', zones: opts.shieldZones, lookback: opts.schedule.shieldLookbackDays },
  ] as const;

  return {
    name: 'ledger',
    async collect() {
      const now = opts.now();
      // Read everything first, then set the gauges in one go (a scrape never shows half of them).
      const readLedger = async () => {
        const read = [];
        for (const { source, zones, lookback } of sources) {
          for (const zone of zones)
            read.push({ source, zone, lookback, rows: await opts.ledger.list({ source, zone }) });
        }
        return read;
      };
      const [read, timestamps] = await Promise.all([readLedger(), opts.newest()]);
      for (const g of [m.lastCompleteDay, m.newestEntry, m.ingestionLag, m.daysAtRisk]) g.reset();
      for (const { source, zone, lookback, rows } of read) {
        const labels = { source, zone: String(zone) };
        const ts = timestamps.get(zoneKey(source, zone));
        let lastComplete: string | null = null;
        let covered: number | null = null;
        const states = new Map<string, DayState>();
        const since = addDays(dayOf(now), -lookback);
        for (const r of rows) {
          if (r.state === 'complete' && (lastComplete === null || r.log_date > lastComplete))
            lastComplete = r.log_date;
          if (r.covered_until !== null && (covered === null || r.covered_until > covered))
            covered = r.covered_until;
          if (r.log_date >= since) states.set(r.log_date, r.state);
        }
        if (lastComplete) m.lastCompleteDay.set(labels, dayEndMs(lastComplete as Day) / 1000);
        if (ts !== undefined) m.newestEntry.set(labels, ts / 1000);
        m.ingestionLag.set(labels, covered === null ? Infinity : Math.max(0, now - covered) / 1000);
        const risky = daysAtRisk({
          now,
          lookbackDays: lookback,
          finalizeDelayMs: opts.schedule.finalizeDelay,
          refreshEveryMs: opts.schedule.refreshEvery,
          states,
        });
        m.daysAtRisk.set(labels, risky.length);
      }
    },
  };
}
