// `edgelog export` reads the store's rows above the flush watermark once, as it scans: they go to a file
// of JSON lines in the export's private spill directory (store-spool.ts), not into a DuckDB table (which
// held a 49,999-row Shield tail at ~130 MiB more than DuckDB counted: docs/HISTORY.md). Checked on both
// stores: the file is private while it exists and gone afterwards, every value comes out as the store
// holds it (hostile text too, and integers as integers), and a flush between the read and the watermark's
// second look leaves each entry once.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDuckDb } from '../../src/history/duckdb.js';
import { QUERY_SPILL_DIR } from '../../src/history/duckdb-guard.js';
import { exportRows, type ExportRequest } from '../../src/history/export-rows.js';
import { sqlStringLiteral } from '../../src/history/statement-tables.js';
import { HISTORY_COLUMNS } from '../../src/store/history-columns.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import type { QueryValue } from '../../src/store/store.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { Day } from '../../src/time/utc-day.js';
import { memoryOutput } from '../report/fixture.js';
import { NOW, type Harness } from '../support/harness.js';
import { compactArchive, historyRoot, storeQueries } from '../support/history-files.js';
import { describeStores, storeHarness } from '../support/stores.js';

const DAYS = ['2026-11-20', '2026-11-21'] as Day[];
const TABLE = 'shield_event_logs';
const COLUMNS = HISTORY_COLUMNS[TABLE].columns.map(([n]) => n);
/** Text a Shield entry may carry: quotes, escapes, line and paragraph separators, a BOM, SQL, JSON. */
const HOSTILE = `"q" \\ \n\r\t \u2028\u2029 \uFEFF😀 é '); DROP TABLE x; -- [1,"2"] null \u001b[31m`;

/** Every value as text (integers come as bigint, number or text, by store and reader). */
const asText = (rows: QueryValue[][]) => rows.map((r) => r.map((v) => (v === null ? null : String(v))));

describeStores('edgelog export of a day still in the store', (store) => {
  let h: Harness;
  let root: string;
  let request: Omit<ExportRequest, 'onStoreRows'>;
  /** The store's rows of both days (the second day's all above the watermark), ordered by log_id. */
  let stored: (string | null)[][];
  let tail: number;

  beforeAll(async () => {
    h = await storeHarness(store, { entriesPerDay: 150, pageSize: 100 });
    root = historyRoot(h);
    const sync = async (day: Day, history: { path: string | null }) => {
      const engine = await h.engine({ pullZones: [101], shieldZones: [201], history });
      const plan = syncPlan(engine.config, { from: day, to: day, source: ['shield'] }, NOW);
      expect((await executeSync(engine, plan)).summary.ok).toBe(true);
    };
    // The first day in parts; the second stored by an engine that keeps no history: above the watermark.
    await sync(DAYS[0]!, { path: root });
    expect((await compactArchive(h, () => NOW, { filter: { to: DAYS[0] } })).days).toBeGreaterThan(0);
    await sync(DAYS[1]!, { path: null });
    await setHostileText(h, DAYS[1]!);
    const queries = storeQueries(h);
    request = { root, store: queries, table: TABLE, scope: { from: DAYS[0]!, to: DAYS[1]! } };
    stored = asText(await rowsOf(queries, `SELECT ${COLUMNS.join(', ')} FROM ${TABLE} ORDER BY log_id`));
    tail = stored.filter((r) => r[2] === DAYS[1]).length;
    expect(tail).toBeGreaterThan(0);
    expect(stored.length).toBeGreaterThan(tail);
  }, 90_000);
  afterAll(async () => h?.close());

  it('spools the rows above the watermark to a private file, removed afterwards', async () => {
    const file = join(h.dir, 'spool.parquet');
    const seen: Array<{ path: string; dirMode: number; mode: number; lines: number; rows: number }> = [];
    const rows = await exportRows(
      {
        ...request,
        onStoreRows: (_t, n) => {
          const spill = join(root, QUERY_SPILL_DIR);
          for (const dir of readdirSync(spill))
            for (const name of readdirSync(join(spill, dir))) {
              const path = join(spill, dir, name);
              const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
              const mode = statSync(path).mode & 0o777;
              seen.push({ path, dirMode: statSync(join(spill, dir)).mode & 0o777, mode, lines, rows: n });
            }
        },
      },
      { format: 'parquet', file },
    );
    expect(rows).toBe(stored.length);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ dirMode: 0o700, mode: 0o600, lines: tail, rows: tail });
    expect(seen[0]!.path.endsWith(`${TABLE}.ndjson`)).toBe(true);
    expect(readdirSync(join(root, QUERY_SPILL_DIR))).toEqual([]);
    rmSync(file);
  });

  it("writes every row once with the store's values, hostile text and integer types kept", async () => {
    const file = join(h.dir, 'values.parquet');
    await exportRows(request, { format: 'parquet', file });
    const conn = await openDuckDb();
    try {
      const from = `read_parquet(${sqlStringLiteral(file)})`;
      const reader = await conn.runAndReadAll(`SELECT ${COLUMNS.join(', ')} FROM ${from} ORDER BY log_id`);
      expect(asText(reader.getRows() as QueryValue[][])).toEqual(stored);
      const types = await conn.runAndReadAll(
        `SELECT DISTINCT typeof(shield_zone_id), typeof(timestamp), typeof(message) FROM ${from}`,
      );
      expect(types.getRows()).toEqual([['BIGINT', 'BIGINT', 'VARCHAR']]);
    } finally {
      conn.closeSync();
    }
    expect(stored.filter((r) => r[COLUMNS.indexOf('message')] === HOSTILE)).toHaveLength(tail);
    rmSync(file);
    // The text formats read the same relation.
    const out = memoryOutput();
    await exportRows(request, { format: 'ndjson', out });
    const lines = out
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, QueryValue>)
      .sort((a, b) => (String(a.log_id) < String(b.log_id) ? -1 : 1));
    expect(asText(lines.map((l) => COLUMNS.map((c) => l[c] ?? null)))).toEqual(stored);
  });

  it('with no history, spools to a private directory of the system temp and removes it', async () => {
    const tmp = join(h.dir, 'tmp');
    mkdirSync(tmp);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const seen: string[] = [];
    try {
      const out = memoryOutput();
      const rows = await exportRows(
        {
          ...request,
          root: null,
          onStoreRows: () => {
            const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
            for (const dir of readdirSync(tmp))
              for (const name of readdirSync(join(tmp, dir)))
                seen.push(`${dir} ${mode(join(tmp, dir))} ${name} ${mode(join(tmp, dir, name))}`);
          },
        },
        { format: 'ndjson', out },
      );
      expect(rows).toBe(stored.length);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(new RegExp(`^edgelog-export-\\S+ 700 ${TABLE}\\.ndjson 600$`));
    expect(readdirSync(tmp)).toEqual([]);
  });

  // Last: the flush moves the second day into parts.
  it('reads again after a flush that ended meanwhile: each row once', async () => {
    const reads: number[] = [];
    const file = join(h.dir, 'flushed.parquet');
    const rows = await exportRows(
      {
        ...request,
        onStoreRows: async (_t, n) => {
          reads.push(n);
          if (reads.length === 1)
            await compactArchive(h, () => NOW, { filter: { from: DAYS[1], to: DAYS[1] } });
        },
      },
      { format: 'parquet', file },
    );
    expect(reads).toEqual([tail, 0]);
    expect(rows).toBe(stored.length);
    const conn = await openDuckDb();
    try {
      const reader = await conn.runAndReadAll(
        `SELECT count(*), count(DISTINCT log_id) FROM read_parquet(${sqlStringLiteral(file)})`,
      );
      expect(reader.getRows()).toEqual([[BigInt(stored.length), BigInt(stored.length)]]);
    } finally {
      conn.closeSync();
    }
  });
});

async function rowsOf(queries: ExportRequest['store'], sql: string): Promise<QueryValue[][]> {
  return queries.readOnly(sql, { timeoutMs: 30_000 }, async (cursor) => {
    const out: QueryValue[][] = [];
    for (let rows = await cursor.next(1000); rows.length > 0; rows = await cursor.next(1000))
      out.push(...rows);
    return out;
  });
}

/** The day's Shield rows get HOSTILE as their message and a log of it, as a page's text could be. */
async function setHostileText(h: Harness, day: Day): Promise<void> {
  const log = JSON.stringify({ Message: HOSTILE });
  if (h.databaseUrl === undefined) {
    const db = openDatabase(h.dbPath);
    try {
      db.prepare(`UPDATE ${TABLE} SET message = ?, log = ? WHERE log_date = ?`).run(HOSTILE, log, day);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: h.databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE ${TABLE} SET message = $1, log = $2 WHERE log_date = $3`, [HOSTILE, log, day]);
  } finally {
    await client.end();
  }
}
