// The history job of `edgelog run` (issue 20): once a day settles, a compact job puts it into history
// (and the sweep that rides on the plans finds the rest), on SQLite and PostgreSQL alike; the files equal
// the simulator's oracle, read back by DuckDB. `edgelog sync` does not compact.
import { existsSync, readdirSync } from 'node:fs';
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

describeStores('edgelog sync and the history', (store) => {
  it('edgelog sync leaves a few small days in the store, flushes once the rows above the watermark reach the bound, and merges none', async () => {
    h = await storeHarness(store, { entriesPerDay: 200 });
    const engine = await h.engine({ schedule: { finalizeDelay: '0s' } });
    const day = addDays(TODAY, -1);
    const { summary } = await executeSync(engine, {
      days: [{ source: 'origin', zone: 101, day, reason: 'sync' }],
      guardianZones: [],
    });
    expect(summary.results.map((r) => r.state)).toEqual(['complete']);
    const dir = dayDir(join(h.dir, 'history'), 'origin_error_logs', 101, day);
    // Fewer rows than FLUSH_ROWS: no part per zone-day for a sync of a few small ones.
    expect(existsSync(dir)).toBe(false);
    // Counted in the worker's own store, and the day never merged: no history process was started.
    expect(summary.historyPeakRssMb).toBeNull();
    const stored = summary.results[0]!.newEntries;
    expect(await engine.history!.flushIfDue(stored + 1)).toMatchObject({ outcome: 'nothing' });
    expect(await engine.history!.flushIfDue(stored)).toMatchObject({ outcome: 'flushed', rows: stored });
    expect(readdirSync(dir).filter((n) => n.startsWith('part-'))).toHaveLength(1);
    // Written by the history's own process, whose memory is reported apart.
    expect(await engine.history!.peakRssMb()).toBeGreaterThan(0);
    expect(await engine.store.history.list()).toEqual([]);
  });
});
