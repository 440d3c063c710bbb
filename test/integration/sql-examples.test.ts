// Every ```sql example of docs/SQL.md runs through `edgelog query` and returns rows on an archive like
// the one `edgelog demo` writes: the same zones, simulator settings and spike, synced through the engine
// for the last three UTC days as of now (the examples' dates are relative to now), plus two API Guardian
// snapshots for the example that reads them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryCommand } from '../../src/commands/query.js';
import { executeSync, syncPlan } from '../../src/commands/sync.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { memoryStdout } from '../report/fixture.js';
import { harness, type Harness } from '../support/harness.js';

const DOC = new URL('../../docs/SQL.md', import.meta.url);

/** The statements of the page's ```sql blocks, in order. */
function sqlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.trim());
}

let h: Harness;
let configPath: string;

beforeAll(async () => {
  const now = Date.now();
  // What demo.ts asks of the simulator, with fewer entries per day.
  h = await harness({
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
  configPath = join(h.dir, 'edgelog.config.json');
  writeFileSync(configPath, JSON.stringify({ database: { path: h.dbPath } }));
}, 60_000);

afterAll(async () => h?.close());

/** Runs one statement as `edgelog query --format ndjson` does and returns its rows. */
async function query(sql: string): Promise<unknown[]> {
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

describe('docs/SQL.md examples', () => {
  const blocks = sqlBlocks(readFileSync(DOC, 'utf8'));

  it('has the ten examples, some in two statements', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
  });

  it.each(blocks.map((sql, i) => [i + 1, sql] as const))(
    'block %i runs and returns rows',
    async (_n, sql) => {
      expect((await query(sql)).length).toBeGreaterThan(0);
    },
  );
});
