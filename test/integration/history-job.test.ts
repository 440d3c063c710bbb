// The history job of `edgelog run` (issue 20): once a day settles, a compact job puts it into history
// (and the sweep that rides on the plans finds the rest), on SQLite and PostgreSQL alike; the files equal
// the simulator's oracle, read back by DuckDB. `edgelog sync` does not compact.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDuckDb } from '../../src/history/duckdb.js';
import { dayDir } from '../../src/history/layout.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { addDays, type Day } from '../../src/time/utc-day.js';
import { NOW, TODAY, type Harness } from '../support/harness.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { until } from '../support/until.js';

let h: Harness;
afterEach(async () => h?.close());

describeStores('the history job of edgelog run', (store) => {
  it('compacts every settled zone-day into files equal to the oracle, and leaves today alone', async () => {
    h = await storeHarness(store, { entriesPerDay: 1_500, pageSize: 400 });
    const engine = await h.engine({ schedule: { finalizeDelay: '0s' } });
    engine.runtime.startWorker();
    await engine.runtime.catchUp();
    const settled: Day[] = [addDays(TODAY, -2), addDays(TODAY, -1)];
    const rows = await until('4 zone-days in history', async () => {
      const r = (await engine.store.history.list()).filter((d) => d.compacted_at !== null);
      return r.length >= 4 ? r : undefined;
    });
    expect(rows.map((r) => `${r.source} ${r.log_date}`).sort()).toEqual(
      settled.flatMap((d) => [`origin ${d}`, `shield ${d}`]).sort(),
    );
    const root = join(h.dir, 'history');
    // Today is flushed into parts, never merged: no record.
    expect(rows.some((r) => r.log_date === TODAY)).toBe(false);
    const duck = await openDuckDb();
    try {
      for (const day of settled) {
        for (const [source, zone, table] of [
          ['origin', 101, 'origin_error_logs'],
          ['shield', 201, 'shield_event_logs'],
        ] as const) {
          const want = h.sim
            .entries(source, zone, day, NOW)
            .filter((e) => e.keyable)
            .map((e) => `${e.timestamp} ${e.logId}`)
            .sort();
          const dir = dayDir(root, table, zone, day);
          const parts = readdirSync(dir).filter((n) => n.startsWith('part-'));
          expect(parts).toHaveLength(1);
          const file = join(dir, parts[0]!);
          const got = await duck.runAndReadAll(
            `SELECT timestamp, log_id FROM read_parquet('${file}', hive_partitioning = false)`,
          );
          expect(
            got
              .getRows()
              .map((r) => `${String(r[0])} ${String(r[1])}`)
              .sort(),
          ).toEqual(want);
        }
      }
    } finally {
      duck.closeSync();
    }
  });
});

it('edgelog sync flushes its days into parts before it reports, and merges none', async () => {
  h = await storeHarness('SQLite', { entriesPerDay: 200 });
  const engine = await h.engine({ schedule: { finalizeDelay: '0s' } });
  const day = addDays(TODAY, -1);
  const { summary } = await executeSync(engine, {
    days: [{ source: 'origin', zone: 101, day, reason: 'sync' }],
    guardianZones: [],
  });
  expect(summary.results.map((r) => r.state)).toEqual(['complete']);
  expect(await engine.store.history.list()).toEqual([]);
  const dir = dayDir(join(h.dir, 'history'), 'origin_error_logs', 101, day);
  expect(readdirSync(dir).filter((n) => n.startsWith('part-'))).toHaveLength(1);
  // The parts were written by the history's own process, whose memory the summary reports apart.
  expect(summary.historyPeakRssMb).toBeGreaterThan(0);
});
