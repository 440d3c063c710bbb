// Every example of docs/SQL.md runs through `edgelog query` and returns rows on an archive like the one
// `edgelog demo` writes, on both stores: the same zones, simulator settings and spike, synced through the
// engine for the last three UTC days as of now (the examples' dates are relative to now), plus two API
// Guardian snapshots for the example that reads them. On PostgreSQL an example's `sql postgresql` twin
// runs in its place. Each example runs twice: with --engine store, and on the default engine with the
// first two days in history (an example's `sql duckdb` twin runs there in its place, by DuckDB).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryCommand } from '../../src/commands/query.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { memoryStdout } from '../report/fixture.js';
import type { Harness } from '../support/harness.js';
import { storeQueries, writeHistoryDay } from '../support/history-files.js';
import { describeStores, storeHarness, type StoreKind } from '../support/stores.js';

const DOC = new URL('../../docs/SQL.md', import.meta.url);

/** An example's statement on each store, and on DuckDB when it has a twin for it. */
type Example = Record<StoreKind, string> & { duckdb?: string };

/** The page's examples in order, each as its statement on each store (a twin, or the same). */
function sqlExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const m of markdown.matchAll(/^```sql( postgresql| duckdb)?\n([\s\S]*?)^```$/gm)) {
    const sql = m[2]!.trim();
    if (m[1] === undefined) examples.push({ SQLite: sql, PostgreSQL: sql });
    else if (examples.length === 0) throw new Error(`a sql${m[1]} block before any sql block`);
    else if (m[1] === ' postgresql') examples[examples.length - 1]!.PostgreSQL = sql;
    else examples[examples.length - 1]!.duckdb = sql;
  }
  return examples;
}

const EXAMPLES = sqlExamples(readFileSync(DOC, 'utf8'));

it('docs/SQL.md has the ten examples, some in two statements, nine with a PostgreSQL twin', () => {
  expect(EXAMPLES.length).toBeGreaterThanOrEqual(12);
  expect(EXAMPLES.filter((e) => e.PostgreSQL !== e.SQLite).length).toBeGreaterThanOrEqual(9);
  expect(EXAMPLES.filter((e) => e.duckdb !== undefined).length).toBeGreaterThanOrEqual(3);
});

describeStores('docs/SQL.md examples', (store) => {
  let h: Harness;
  let configPath: string;
  let historyConfigPath: string;

  beforeAll(async () => {
    h = await demoLikeArchive(store);
    configPath = join(h.dir, 'edgelog.config.json');
    const database = h.databaseUrl ? { url: h.databaseUrl } : { path: h.dbPath };
    writeFileSync(configPath, JSON.stringify({ database, history: { path: null } }));
    // The first two days in history (the store keeps their rows too, as within history.hotDays).
    const root = join(h.dir, 'history');
    const today = dayOf(Date.now());
    for (const day of [addDays(today, -2), addDays(today, -1)]) {
      for (const zone of [101, 102])
        await writeHistoryDay(storeQueries(h), root, 'origin_error_logs', zone, day);
      for (const zone of [201, 202])
        await writeHistoryDay(storeQueries(h), root, 'shield_event_logs', zone, day);
    }
    historyConfigPath = join(h.dir, 'edgelog.history.json');
    writeFileSync(historyConfigPath, JSON.stringify({ database, history: { path: root } }));
  }, 60_000);

  afterAll(async () => h?.close());

  it.each(EXAMPLES.map((e, i) => [i + 1, e[store]] as const))(
    'example %i runs and returns rows',
    async (_n, sql) => {
      expect((await query(configPath, sql, '--engine', 'store')).length).toBeGreaterThan(0);
    },
  );

  it.each(EXAMPLES.map((e, i) => [i + 1, e.duckdb ?? e[store], e.duckdb !== undefined] as const))(
    'example %i runs and returns rows on the default engine with days in history',
    async (_n, sql, duckdb) => {
      expect((await query(historyConfigPath, sql)).length).toBeGreaterThan(0);
      // A DuckDB twin is DuckDB's SQL: it runs on the history engine when told so, too.
      if (duckdb)
        expect((await query(historyConfigPath, sql, '--engine', 'history')).length).toBeGreaterThan(0);
    },
  );
});

/** An archive as `edgelog demo` writes it (fewer entries per day), with two Guardian snapshots. */
async function demoLikeArchive(store: StoreKind): Promise<Harness> {
  const now = Date.now();
  // What demo.ts asks of the simulator, with fewer entries per day.
  const h = await storeHarness(store, {
    now: Date.now,
    entriesPerDay: 300,
    pageSize: 500,
    malformedRate: 0.002,
    spikes: [{ source: 'origin', zone: 101, from: now - 40 * 60_000, to: now, count: 600, statusCode: 503 }],
  });
  const engine = await h.engine({ pullZones: [101, 102], shieldZones: [201, 202] }, Date.now);
  const today = dayOf(now);
  const days = { from: addDays(today, -2), to: today };
  const all = syncPlan(engine.config, { ...days, source: ['origin', 'shield', 'guardian'] }, now);
  expect((await executeSync(engine, all)).summary.ok).toBe(true);
  const guardian = syncPlan(engine.config, { ...days, source: ['guardian'] }, now);
  expect((await executeSync(engine, guardian)).summary.ok).toBe(true);
  return h;
}

/** Runs one statement as `edgelog query --format ndjson` does and returns its rows. */
async function query(configPath: string, sql: string, ...args: string[]): Promise<unknown[]> {
  const stdout = memoryStdout();
  const program = new Command('edgelog')
    .option('-c, --config <file>')
    .option('--log-level <level>')
    .exitOverride()
    .configureOutput({ writeErr: () => {} });
  program.addCommand(queryCommand(stdout).exitOverride());
  await program.parseAsync([
    'node',
    'edgelog',
    '-c',
    configPath,
    'query',
    '--format',
    'ndjson',
    ...args,
    sql,
  ]);
  return stdout
    .text()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
}
