// A page's statements answer over one snapshot of the archive: rows stored while the explorer's page and
// histogram, or a dashboard's panels, are being answered are in none of them (answerEach), so a page's
// figures agree with each other; the next request sees the rows.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_ROUTES, type ApiContext } from '../../src/console/api-routes.js';
import { queryLane } from '../../src/console/query-lane.js';
import { archiveQueries } from '../../src/history/archive-queries.js';
import type { HistoryTable } from '../../src/history/layout.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { NOW } from '../support/harness.js';
import { historyRoot, storeQueries } from '../support/history-files.js';
import { describeStores } from '../support/stores.js';
import { consoleArchive, DAYS, SHIELD_201_VIEW, type ConsoleArchive } from './support.js';

describeStores("edgelog serve: a page's statements over one snapshot", (store) => {
  let a: ConsoleArchive;
  beforeAll(async () => {
    a = await consoleArchive(store);
  }, 120_000);
  afterAll(async () => a?.h.close());

  /**
   * The console's API over the archive; once the store's rows of `table` are read for a question, the
   * store gets a copy of DAYS[1]'s rows of it under new ids (one time). Returns the API and how many.
   */
  function racedApi(table: HistoryTable) {
    const added = { rows: 0 };
    const queries = archiveQueries({
      root: historyRoot(a.h),
      store: storeQueries(a.h),
      onStoreRows: async (t) => {
        if (t !== table || added.rows > 0) return;
        added.rows = await copyDay(a, table, DAYS[1]);
      },
    });
    const ctx: ApiContext = {
      queries: queryLane(queries),
      schema: [],
      bounds: { limit: 10_000, timeoutMs: 30_000 },
      downloadLimit: 10_000,
      queue: null,
      alerts: null,
      now: () => NOW,
    };
    const get = async (path: string, params: Record<string, string>) =>
      JSON.parse(await API_ROUTES[path]!(new URLSearchParams(params), ctx)) as Record<string, unknown>;
    return { get, added };
  }

  const sum = (bars: unknown) => (bars as Array<{ count: number }>).reduce((n, b) => n + Number(b.count), 0);

  it("shows the explorer's page and histogram from the same rows", async () => {
    const { get, added } = racedApi('shield_event_logs');
    const page = await get('/api/v1/logs', { ...SHIELD_201_VIEW, limit: '1000' });
    expect(added.rows).toBeGreaterThan(0);
    expect(page.more).toBe(false);
    const lines = (page.lines as unknown[]).length;
    expect(lines).toBeGreaterThan(50);
    expect(sum((page.histogram as { bars: unknown }).bars)).toBe(lines);
    // The next request sees the rows stored meanwhile.
    const next = await get('/api/v1/logs', { ...SHIELD_201_VIEW, limit: '1000' });
    expect((next.lines as unknown[]).length).toBe(lines + added.rows);
  });

  it("shows a dashboard's panels from the same rows", async () => {
    const { get, added } = racedApi('origin_error_logs');
    const view = { source: 'origin', zone: '101', from: '0' };
    const d = await get('/api/v1/dashboard', view);
    expect(added.rows).toBeGreaterThan(0);
    const total = sum(d.hourly);
    expect(sum((d.detail as { hourly: unknown }).hourly)).toBe(total);
    const codes = (d.top as Record<string, Array<{ count: number }>>).code!;
    // Fewer than 10 codes: the top list holds them all.
    expect(codes.length).toBeLessThan(10);
    expect(sum(codes)).toBe(total);
    expect(sum((await get('/api/v1/dashboard', view)).hourly)).toBe(total + added.rows);
  });
});

/** Copies `day`'s rows of `table` in the store under new log ids; returns how many. */
async function copyDay(a: ConsoleArchive, table: HistoryTable, day: string): Promise<number> {
  const zone = table === 'origin_error_logs' ? 'pull_zone_id' : 'shield_zone_id';
  // The stored columns (not the id, not a generated one), the same on both stores.
  const columns = (names: string[]) => names.filter((n) => n !== 'id' && n !== 'time');
  const copy = (cols: string[]) =>
    `INSERT INTO ${table} (${cols.join(', ')}) SELECT ${cols
      .map((c) => (c === 'log_id' ? "'copy-' || log_id" : c))
      .join(', ')} FROM ${table} WHERE log_date = '${day}' AND ${zone} IN (101, 201)`;
  if (a.h.databaseUrl === undefined) {
    const db = openDatabase(a.h.dbPath);
    try {
      const cols = columns(
        (
          db.prepare(`SELECT name FROM pragma_table_xinfo('${table}') WHERE hidden = 0`).all() as Array<{
            name: string;
          }>
        ).map((r) => r.name),
      );
      return db.prepare(copy(cols)).run().changes;
    } finally {
      db.close();
    }
  }
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: a.h.databaseUrl });
  await client.connect();
  try {
    const names = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
      [table],
    );
    return (await client.query(copy(columns(names.rows.map((r) => r.column_name))))).rowCount ?? 0;
  } finally {
    await client.end();
  }
}
