// Every example of docs/SQL.md runs through `edgelog query` and returns rows on an archive like the one
// `edgelog demo` writes, on both stores: the same zones, simulator settings and spike, synced through the
// engine for the last three UTC days as of now (the examples' dates are relative to now), plus two API
// Guardian snapshots for the example that reads them. On PostgreSQL an example's `sql postgresql` twin
// runs in its place.
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
import { describeStores, storeHarness, type StoreKind } from '../support/stores.js';

const DOC = new URL('../../docs/SQL.md', import.meta.url);

/** The page's examples in order, each as its statement on each store (a twin, or the same). */
function sqlExamples(markdown: string): Array<Record<StoreKind, string>> {
  const examples: Array<Record<StoreKind, string>> = [];
  for (const m of markdown.matchAll(/^```sql( postgresql)?\n([\s\S]*?)^```$/gm)) {
    const sql = m[2]!.trim();
    if (m[1] === undefined) examples.push({ SQLite: sql, PostgreSQL: sql });
    else if (examples.length > 0) examples[examples.length - 1]!.PostgreSQL = sql;
    else throw new Error('a sql postgresql block before any sql block');
  }
  return examples;
}

const EXAMPLES = sqlExamples(readFileSync(DOC, 'utf8'));

it('docs/SQL.md has the ten examples, some in two statements, nine with a PostgreSQL twin', () => {
  expect(EXAMPLES.length).toBeGreaterThanOrEqual(12);
  expect(EXAMPLES.filter((e) => e.PostgreSQL !== e.SQLite).length).toBeGreaterThanOrEqual(9);
});

describeStores('docs/SQL.md examples', (store) => {
  let h: Harness;
  let configPath: string;

  beforeAll(async () => {
    h = await demoLikeArchive(store);
    configPath = join(h.dir, 'edgelog.config.json');
    const database = h.databaseUrl ? { url: h.databaseUrl } : { path: h.dbPath };
    writeFileSync(configPath, JSON.stringify({ database }));
  }, 60_000);

  afterAll(async () => h?.close());

  it.each(EXAMPLES.map((e, i) => [i + 1, e[store]] as const))(
    'example %i runs and returns rows',
    async (_n, sql) => {
      expect((await query(configPath, sql)).length).toBeGreaterThan(0);
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
async function query(configPath: string, sql: string): Promise<unknown[]> {
  const stdout = memoryStdout();
  const program = new Command('edgelog')
    .option('-c, --config <file>')
    .option('--log-level <level>')
    .exitOverride()
    .configureOutput({ writeErr: () => {} });
  program.addCommand(queryCommand(stdout).exitOverride());
  await program.parseAsync(['node', 'edgelog', '-c', configPath, 'query', '--format', 'ndjson', sql]);
  return stdout
    .text()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
}
