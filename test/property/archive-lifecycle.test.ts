// One archive, one answer (issue 27): random sequences of what happens to an archive — syncs of days
// (again, and later with more entries), with and without a flush after them, compactions with hotDays
// changing (merges and pruning), the clock moving on, retention — on both stores, and after each step
// every reader (query in the archive's dialect, export, the origin report, the rollups, the ledger)
// equals an independent count: the entries the simulator served, each once. Short in `npm test`;
// `npm run soak` runs it with PROPERTY_RUNS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { exportCommand } from '../../src/commands/export.js';
import { queryCommand } from '../../src/commands/query.js';
import { reportCommand } from '../../src/commands/report.js';
import type { Engine } from '../../src/engine.js';
import { expireArchive } from '../../src/history/retention.js';
import { openStore } from '../../src/store/open-store.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import { addDays, DAY_MS, dayOf, dayStartMs, type Day } from '../../src/time/utc-day.js';
import { memoryStdout } from '../report/fixture.js';
import type { Harness } from '../support/harness.js';
import { compactArchive, historyRoot } from '../support/history-files.js';
import { describeStores, storeHarness, type StoreKind } from '../support/stores.js';
import { propertyParams } from './runs.js';

const START = Date.parse('2026-11-20T09:00:00Z');
const ZONES = { origin: 101, shield: 201 } as const;
type Source = keyof typeof ZONES;

type Step =
  | { kind: 'sync'; source: Source; back: number; flush: boolean }
  | { kind: 'advance'; hours: number }
  | { kind: 'compact'; hotDays: number | null }
  | { kind: 'retention'; keep: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    // Shield serves today and the two days before (API-NOTES); origin days further back are fetched again
    // after they were pruned (a backfill: the store needs their keys back first).
    arbitrary: fc.oneof(
      fc.record({
        kind: fc.constant('sync' as const),
        source: fc.constant<Source>('shield'),
        back: fc.integer({ min: 0, max: 2 }),
        flush: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('sync' as const),
        source: fc.constant<Source>('origin'),
        back: fc.integer({ min: 0, max: 4 }),
        flush: fc.boolean(),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 30 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      hotDays: fc.constantFrom<number | null>(null, 0, 1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('retention' as const), keep: fc.integer({ min: 5, max: 6 }) }),
  },
);

/** An archive, the engines that sync it, and the independent count. */
interface World {
  h: Harness;
  clock: number;
  /** Syncs that flush after each day, and syncs whose rows stay in the store (no history kept). */
  flushing: Engine;
  lagging: Engine;
  configPath: string;
  /** The keys the simulator served, per source and day: what the archive must hold, each once. */
  oracle: Record<Source, Map<string, Set<string>>>;
}

async function world(kind: StoreKind): Promise<World> {
  const w = { clock: START } as World;
  w.h = await storeHarness(kind, { entriesPerDay: 96, pageSize: 40, now: () => w.clock });
  const zones = { pullZones: [ZONES.origin], shieldZones: [ZONES.shield] };
  w.flushing = await w.h.engine(zones, () => w.clock);
  w.lagging = await w.h.engine({ ...zones, history: { path: null } }, () => w.clock);
  w.configPath = join(w.h.dir, 'edgelog.config.json');
  const database = w.h.databaseUrl ? { url: w.h.databaseUrl } : { path: w.h.dbPath };
  writeFileSync(w.configPath, JSON.stringify({ database, history: { path: historyRoot(w.h) } }));
  w.oracle = { origin: new Map(), shield: new Map() };
  return w;
}

async function apply(w: World, s: Step): Promise<void> {
  const today = dayOf(w.clock);
  if (s.kind === 'advance') w.clock += s.hours * 3_600_000;
  else if (s.kind === 'sync') {
    const day = addDays(today, -s.back);
    const engine = s.flush ? w.flushing : w.lagging;
    const plan = syncPlan(engine.config, { from: day, to: day, source: [s.source] }, w.clock);
    const { summary } = await executeSync(engine, plan);
    if (!s.flush && !summary.ok) {
      // A worker with no history refuses a pruned day (thaw.ts refusePrunedDay): nothing archived.
      expect(summary.results.map((r) => r.error)).toEqual([
        expect.stringMatching(/cannot fetch the day again/),
      ]);
      return;
    }
    expect(summary.ok, JSON.stringify(summary)).toBe(true);
    const served = w.h.sim.entries(s.source, ZONES[s.source], day, w.clock).filter((e) => e.keyable);
    const keys = w.oracle[s.source].get(day) ?? new Set<string>();
    for (const e of served) keys.add(`${e.timestamp} ${e.logId}`);
    w.oracle[s.source].set(day, keys);
  } else if (s.kind === 'compact') {
    const pass = await compactArchive(w.h, () => w.clock, { hotDays: s.hotDays, originLookbackDays: 2 });
    expect(pass.failed).toEqual([]);
  } else {
    const cutoff = dayStartMs(today) - s.keep * DAY_MS;
    const store = await openStore({
      path: w.h.dbPath,
      url: w.h.databaseUrl ?? null,
      readerUrl: null,
    } as Parameters<typeof openStore>[0]);
    try {
      await expireArchive(
        { store, root: historyRoot(w.h), owner: 'retention-test', now: () => w.clock, leaseMs: 60_000 },
        cutoff,
      );
    } finally {
      await store.close();
    }
    for (const source of ['origin', 'shield'] as const)
      for (const day of [...w.oracle[source].keys()]) if (day < dayOf(cutoff)) w.oracle[source].delete(day);
  }
}

/** Runs an edgelog command as a user does, and returns what it printed. */
async function cli(w: World, command: Command, ...args: string[]): Promise<string> {
  const program = new Command('edgelog')
    .option('-c, --config <file>')
    .exitOverride()
    .configureOutput({ writeErr: () => {} });
  program.addCommand(command.exitOverride());
  await program.parseAsync(['node', 'edgelog', '-c', w.configPath, command.name(), ...args]);
  return '';
}

async function ndjson(w: World, make: (out: ReturnType<typeof memoryStdout>) => Command, ...args: string[]) {
  const out = memoryStdout();
  await cli(w, make(out), ...args);
  return out
    .text()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const TABLE = { origin: 'origin_error_logs', shield: 'shield_event_logs' } as const;
const ZONE_COLUMN = { origin: 'pull_zone_id', shield: 'shield_zone_id' } as const;
const ROLLUP = { origin: 'origin_hourly', shield: 'shield_hourly' } as const;

/** Every reader against the oracle. */
/** The steps in a world of their own, every reader checked against the count after each. */
async function run(kind: StoreKind, steps: readonly Step[]): Promise<void> {
  const w = await world(kind);
  try {
    const done: Step[] = [];
    for (const s of steps) {
      await apply(w, s);
      done.push(s);
      await check(w, done);
    }
  } finally {
    await w.h.close();
  }
}

async function check(w: World, steps: readonly Step[]): Promise<void> {
  const why = JSON.stringify(steps);
  for (const source of ['origin', 'shield'] as const) {
    const expected: Record<string, number> = Object.fromEntries(
      [...w.oracle[source]].map(([d, keys]) => [d, keys.size] as const).filter(([, n]) => n !== 0),
    );
    const z = ZONES[source];
    // query, in the archive's dialect: each entry once.
    const rows = await ndjson(
      w,
      (o) => queryCommand(o, () => {}),
      '--format',
      'ndjson',
      `SELECT log_date, count(*) AS n, count(DISTINCT (timestamp, log_id)) AS keys FROM ${TABLE[source]} WHERE ${ZONE_COLUMN[source]} = ${z} GROUP BY log_date`,
    );
    const byDay: Record<string, unknown> = Object.fromEntries(
      rows.map((r) => [String(r.log_date), r.n] as const),
    );
    expect(byDay, `query, ${source}, after ${why}`).toEqual(expected);
    for (const r of rows) expect(r.keys, `query keys, ${source}, after ${why}`).toBe(r.n);
    // The rollups and the ledger, in the same dialect.
    const rollup = await ndjson(
      w,
      (o) => queryCommand(o, () => {}),
      '--format',
      'ndjson',
      `SELECT strftime(make_timestamp(hour * 1000), '%Y-%m-%d') AS day, sum(count) AS n FROM ${ROLLUP[source]} WHERE ${ZONE_COLUMN[source]} = ${z} GROUP BY 1`,
    );
    expect(Object.fromEntries(rollup.map((r) => [r.day, r.n])), `rollups, ${source}, after ${why}`).toEqual(
      expected,
    );
    const ledger = await ndjson(
      w,
      (o) => queryCommand(o, () => {}),
      '--format',
      'ndjson',
      `SELECT log_date, archived_entries AS n FROM ingest_ledger WHERE source = '${source}' AND zone_id = ${z} AND retention_removed_at IS NULL AND archived_entries > 0`,
    );
    expect(
      Object.fromEntries(ledger.map((r) => [r.log_date, r.n])),
      `ledger, ${source}, after ${why}`,
    ).toEqual(expected);
    const days = Object.keys(expected).sort() as Day[];
    if (days.length === 0) continue;
    const range = ['--from', days[0]!, '--to', days.at(-1)!];
    // export, every row of the days once.
    const exported = await ndjson(
      w,
      (o) => exportCommand(o, () => {}),
      ...range,
      '--source',
      source,
      '--zone',
      String(z),
      '--format',
      'ndjson',
    );
    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    expect(exported.length, `export, ${source}, after ${why}`).toBe(total);
    expect(new Set(exported.map((r) => `${String(r.timestamp)} ${String(r.log_id)}`)).size).toBe(total);
    // the origin report (from the rollups).
    if (source === 'origin') {
      const out = memoryStdout();
      await cli(
        w,
        reportCommand(out, () => w.clock),
        'origin',
        '--zone',
        String(z),
        ...range,
        '--format',
        'json',
      );
      expect((JSON.parse(out.text()) as { total: number }).total, `report, after ${why}`).toBe(total);
    }
  }
}

describeStores('one archive, one answer: every reader equals the count, whatever happened', (store) => {
  it('a pruned origin day fetched again (a backfill) counts each entry once', async () => {
    const steps: Step[] = [
      { kind: 'sync', source: 'origin', back: 3, flush: true },
      { kind: 'compact', hotDays: 0 },
      { kind: 'sync', source: 'origin', back: 3, flush: true },
      { kind: 'compact', hotDays: 0 },
      { kind: 'sync', source: 'origin', back: 3, flush: false },
    ];
    await run(store, steps);
  }, 120_000);

  it('random syncs, flushes, compactions, pruning, retention and time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 9 }), (steps) => run(store, steps)),
      propertyParams(2, process.env, 10),
    );
  }, 600_000);
});
