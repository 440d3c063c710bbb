// (6) Query latencies on the generated archive, through the same code paths as reports and alerts.
import { AlertEvaluator } from '../src/alerts/evaluator.js';
import { parseConfig } from '../src/config/index.js';
import { silentLogger } from '../src/logger.js';
import { readScope } from '../src/report/sources.js';
import { denseHistogram, reportWindow } from '../src/report/window.js';
import { sqliteReportReads } from '../src/store/sqlite/reports.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { HOUR_MS } from '../src/store/hourly-rollup.js';
import { addDays, dayEndMs } from '../src/time/utc-day.js';
import { ARCHIVE_LAST_DAY } from './archive.js';

export interface QueryTimes {
  topErrorCodesZoneDay: number;
  hourlyHistogram7d: number;
  spikeEvaluation: number;
}

async function median(fn: () => unknown, runs: number): Promise<number> {
  await fn(); // warm the statement cache and the page cache
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(times.length / 2)]!.toFixed(3));
}

export async function measureQueries(path: string, runs = 25): Promise<QueryTimes> {
  const store = openSqliteStore(path); // applies migrations newer than the cached archive
  const { db } = store.archive;
  try {
    const zone = 7;
    const oneDay = { zone, window: reportWindow({ from: ARCHIVE_LAST_DAY, to: ARCHIVE_LAST_DAY, now: 0 }) };
    const week = reportWindow({ from: addDays(ARCHIVE_LAST_DAY, -6), to: ARCHIVE_LAST_DAY, now: 0 });
    const weekHourly = { zone, window: { ...week, bucket: 'hour' as const, bucketMs: HOUR_MS } };
    const reads = sqliteReportReads(db);
    const config = parseConfig({
      pullZones: [zone],
      alerts: {
        rules: [
          {
            name: 'bench-spike',
            type: 'spike',
            source: 'origin',
            filter: { statusCodeMin: 500 },
            window: '1h',
          },
        ],
      },
    });
    const evaluator = new AlertEvaluator({
      config,
      repo: store.alerts,
      logger: silentLogger(),
      now: () => dayEndMs(ARCHIVE_LAST_DAY) + 30 * 60_000,
    });
    return {
      topErrorCodesZoneDay: await median(
        () => reads.rollupTop('origin', readScope(oneDay), 'error_code', 10),
        runs,
      ),
      hourlyHistogram7d: await median(
        async () =>
          denseHistogram(
            weekHourly.window,
            await reads.buckets('origin', readScope(weekHourly), weekHourly.window.bucketMs),
          ),
        runs,
      ),
      spikeEvaluation: await median(() => evaluator.evaluate({ source: 'origin', zone }), runs),
    };
  } finally {
    await store.close();
  }
}
