// The history engine's DuckDB as a user runs `edgelog query` (issue 28, item 5): a file under the working
// directory's `.tmp/` (DuckDB's default temp directory, which it may always read) is refused like any
// other; DuckDB spills to a private directory under the history's scratch, removed afterwards; and a
// string function asked to build gigabytes (`repeat(log, 4000000)`) fails at once with a clear error
// instead of taking the process past 1 GB (the test kills it at 1 GiB, so a regression cannot take the
// machine's memory).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { Day } from '../../src/time/utc-day.js';
import { MAX_BUILT_CHARS, QUERY_SPILL_DIR } from '../../src/history/duckdb-guard.js';
import { runCli, startCli } from '../support/cli.js';
import { harness, type Harness } from '../support/harness.js';
import { compactArchive, historyRoot } from '../support/history-files.js';

const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22'] as Day[];
const GIB = 1024 ** 3;

/** The process's resident set, from /proc (0 once it has gone). */
function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

describe('the history engine locked down', () => {
  let h: Harness;
  let root: string;
  let config: string;

  beforeAll(async () => {
    h = await harness({ entriesPerDay: 200, pageSize: 100 });
    const engine = await h.engine({ pullZones: [101], shieldZones: [] });
    const plan = syncPlan(
      engine.config,
      { from: DAYS[0], to: DAYS[2], source: ['origin'] },
      Date.parse('2026-11-22T12:00:00Z'),
    );
    expect((await executeSync(engine, plan)).summary.ok).toBe(true);
    // The sync flushed every day into parts; the first two are merged as well.
    root = historyRoot(h);
    expect(
      (await compactArchive(h, () => Date.parse('2026-11-22T12:00:00Z'), { filter: { to: DAYS[1] } })).days,
    ).toBe(2);
    config = join(h.dir, 'edgelog.config.json');
    writeFileSync(config, JSON.stringify({ database: { path: h.dbPath }, history: { path: root } }));
    // A file where DuckDB's own temp directory would be: the working directory's `.tmp/`.
    mkdirSync(join(h.dir, '.tmp'));
    writeFileSync(join(h.dir, '.tmp', 'secret.txt'), 'not for queries\n');
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const query = (sql: string) =>
    runCli(['--config', config, 'query', '--format', 'ndjson', sql], { cwd: h.dir });

  it('refuses a file under the working directory’s .tmp/, relative or absolute', async () => {
    for (const path of ['.tmp/secret.txt', join(h.dir, '.tmp', 'secret.txt')]) {
      const r = await query(`SELECT content FROM read_text('${path}')`);
      expect(r.stdout).not.toContain('not for queries');
      expect(r.stderr).toMatch(/query refused: Permission Error/);
      expect(r.code).not.toBe(0);
    }
  });

  it('spills under the history’s scratch, private, and leaves nothing there', async () => {
    const r = await query(
      `SELECT current_setting('temp_directory') AS dir, (SELECT count(*) FROM origin_error_logs) AS n`,
    );
    expect(r.stderr).toBe('');
    const row = JSON.parse(r.stdout) as { dir: string; n: number };
    expect(row.n).toBeGreaterThan(0);
    expect(row.dir.startsWith(join(root, QUERY_SPILL_DIR, 'q-'))).toBe(true);
    expect(statSync(join(root, QUERY_SPILL_DIR)).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(root, QUERY_SPILL_DIR))).toEqual([]);
  });

  /**
   * `query` whose resident set is watched: its peak, and the process killed past 1 GiB (a statement that
   * escaped the bound must not take the machine's memory).
   */
  async function watchedQuery(sql: string) {
    const run = startCli(['--config', config, 'query', sql], { cwd: h.dir });
    let peak = 0;
    const pid = run.child.pid!;
    const watch = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid));
      if (peak > GIB) run.child.kill('SIGKILL');
    }, 10);
    const result = await run.done;
    clearInterval(watch);
    return { ...result, peak };
  }

  it('repeat(log, 4000000): fails cleanly at once, far below 1 GB', async () => {
    const result = await watchedQuery('SELECT length(repeat(log, 4000000)) AS n FROM origin_error_logs');
    expect(result.signal).toBeNull();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`repeat: the result would be over ${MAX_BUILT_CHARS} characters`);
    expect(result.peak).toBeLessThan(512 * 1024 ** 2);
    // A repeat within the bound still works; the built-in named by schema (past the bound) is refused.
    expect((await query(`SELECT length(repeat('ab', 10)) AS n`)).stdout).toBe('{"n":20}\n');
    // A row constructor parses as main.row: the default schema is not a reach past the bound.
    expect((await query(`SELECT (1, 'a') = (1, 'a') AS same`)).stdout).toBe('{"same":1}\n');
    const qualified = await watchedQuery(
      'SELECT length(system.main.repeat(log, 4000000)) FROM origin_error_logs',
    );
    expect(qualified.signal).toBeNull();
    expect(qualified.stderr).toMatch(
      /query refused: name functions without a schema \(system\.main\.repeat\)/,
    );
  }, 60_000);
});
