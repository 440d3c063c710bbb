// Every example of docs/SQL.md runs through `edgelog query` and returns rows on an archive like the one
// `edgelog demo` writes, on both stores: the same zones, simulator settings and spike, synced through the
// engine for the last three UTC days as of one instant (the examples' dates are relative to now), the
// first two days merged into the history, plus two API Guardian snapshots for the example that reads
// them. The archive's one dialect: each example is one statement, and the two stores give the same rows.
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
import { compactArchive, historyRoot } from '../support/history-files.js';
import { describeStores, storeHarness, type StoreKind } from '../support/stores.js';

const DOC = new URL('../../docs/SQL.md', import.meta.url);

/** The page's examples in order. */
const EXAMPLES = [...readFileSync(DOC, 'utf8').matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((m) =>
  m[1]!.trim(),
);

/** One instant for both stores' archives: the simulator's data are a function of it. */
const NOW = Date.now();

it('docs/SQL.md has its examples, one statement each in the one dialect', () => {
  expect(EXAMPLES.length).toBeGreaterThanOrEqual(12);
  expect(readFileSync(DOC, 'utf8')).not.toMatch(/^```sql (postgresql|duckdb)$/m);
});

/** Each store's answers, by example: compared once both ran. */
const answers: Partial<Record<StoreKind, unknown[][]>> = {};

describeStores('docs/SQL.md examples', (store) => {
  let h: Harness;
  let configPath: string;

  beforeAll(async () => {
    h = await demoLikeArchive(store);
    // The first two days merged (and the whole archive flushed), as the worker leaves it.
    await compactArchive(h, () => NOW, { filter: { to: addDays(dayOf(NOW), -1) } });
    configPath = join(h.dir, 'edgelog.config.json');
    const database = h.databaseUrl ? { url: h.databaseUrl } : { path: h.dbPath };
    writeFileSync(configPath, JSON.stringify({ database, history: { path: historyRoot(h) } }));
  }, 90_000);

  afterAll(async () => h?.close());

  it.each(EXAMPLES.map((sql, i) => [i + 1, sql] as const))(
    'example %i runs and returns rows',
    async (n, sql) => {
      const rows = await query(configPath, sql);
      expect(rows.length).toBeGreaterThan(0);
      (answers[store] ??= [])[n - 1] = rows;
      // The same rows on both stores (the examples relative to now() may differ by the instant they ran).
      const other = answers[store === 'SQLite' ? 'PostgreSQL' : 'SQLite']?.[n - 1];
      if (other !== undefined && !/now\(\)/.test(sql)) expect(rows).toEqual(other);
    },
  );
});

/** An archive as `edgelog demo` writes it (fewer entries per day), with two Guardian snapshots. */
async function demoLikeArchive(store: StoreKind): Promise<Harness> {
  const now = NOW;
  // What demo.ts asks of the simulator, with fewer entries per day.
  const h = await storeHarness(store, {
    now: () => NOW,
    entriesPerDay: 300,
    pageSize: 500,
    malformedRate: 0.002,
    spikes: [{ source: 'origin', zone: 101, from: now - 40 * 60_000, to: now, count: 600, statusCode: 503 }],
  });
  const engine = await h.engine({ pullZones: [101, 102], shieldZones: [201, 202] }, () => NOW);
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
