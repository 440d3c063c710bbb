// The history engine skips the days a statement's filter on `timestamp` or `time` cannot match, by the
// timestamps each part's name records (parts.ts, file-parts.ts), and never a row: entries may carry any
// timestamp, also one outside their log_date's day, and each is still counted exactly once. Checked
// against the same SQL on the store (SQLite), on an archive whose rows are all in parts (stored before
// write batches, so the first flush converts them).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveQueries } from '../../src/history/archive-queries.js';
import { dayDir } from '../../src/history/layout.js';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { sqliteReader } from '../../src/store/sqlite/reader.js';
import type { QueryStore, QueryValue } from '../../src/store/store.js';
import { compactArchive } from '../support/history-files.js';

const DAYS = ['2026-11-18', '2026-11-19', '2026-11-20'];
const H = 3_600_000;
const start = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** Rows whose timestamp lies outside their log_date's day: after it, long before, before 1970, far on. */
const STRAYS: Array<[zone: number, day: string, timestamp: number]> = [
  [7, '2026-11-18', start('2026-11-20') + 13 * H + 5],
  [7, '2026-11-18', Date.parse('1999-12-31T23:59:59Z')],
  [8, '2026-11-19', -86_400_000],
  [8, '2026-11-20', Date.parse('2200-01-01T00:00:00Z')],
];

async function rowsOf(queries: QueryStore, sql: string): Promise<QueryValue[][]> {
  return queries.readOnly(sql, { timeoutMs: 30_000 }, async (cursor) => {
    const out: QueryValue[][] = [];
    for (let rows = await cursor.next(1000); rows.length > 0; rows = await cursor.next(1000))
      out.push(...rows);
    return out;
  });
}

/** Integers as numbers: SQLite hands bigints or numbers, DuckDB bigints. */
const plain = (rows: QueryValue[][]) =>
  rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));

describe('the archive dialect: days skipped by their timestamps, no row lost', () => {
  let dir: string;
  let root: string;
  let store: QueryStore;
  let history: QueryStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-pruning-'));
    const dbPath = join(dir, 'archive.db');
    await openArchive(dbPath).close();
    const db = openDatabase(dbPath);
    const insert = db.prepare(
      `INSERT INTO origin_error_logs (pull_zone_id, log_id, log_date, timestamp, request_url, status_code)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (const day of DAYS)
        for (const zone of [7, 8])
          for (let i = 0; i < 48; i++)
            insert.run(
              zone,
              `${zone}-${day}-${i}`,
              day,
              start(day) + i * 1_800_000,
              `/u/${i % 5}`,
              500 + (i % 4),
            );
      STRAYS.forEach(([zone, day, ts], i) => insert.run(zone, `stray-${i}`, day, ts, '/stray', 503));
    })();
    db.close();
    root = join(dir, 'history');
    store = sqliteReader(dbPath).queries;
    const pass = await compactArchive(
      { dir, dbPath, databaseUrl: undefined },
      () => Date.parse('2026-11-22T12:00:00Z'),
      { root },
    );
    expect(pass.flush?.parts).toBe(DAYS.length * 2);
    history = archiveQueries({ root, store });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const same = [
    // Each stray by its own timestamp, and by `time`.
    ...STRAYS.map(([, , ts]) => `SELECT log_id, log_date FROM origin_error_logs WHERE timestamp = ${ts}`),
    // The hour of another day a stray of 2026-11-18 lies in: that day's rows and the stray.
    `SELECT log_id, log_date, timestamp FROM origin_error_logs WHERE timestamp >= ${start('2026-11-20') + 13 * H} AND timestamp < ${start('2026-11-20') + 14 * H} ORDER BY timestamp, log_id`,
    // One day by its timestamps: the strays of other days that lie in it come too.
    `SELECT log_date, count(*) FROM origin_error_logs WHERE timestamp >= ${start('2026-11-20')} AND timestamp < ${start('2026-11-21')} GROUP BY log_date ORDER BY log_date`,
    `SELECT count(*) FROM origin_error_logs WHERE timestamp < 0`,
    `SELECT count(*) FROM origin_error_logs WHERE timestamp > ${start('2026-11-21')}`,
    `SELECT pull_zone_id, log_date, count(*) FROM origin_error_logs GROUP BY pull_zone_id, log_date ORDER BY pull_zone_id, log_date`,
    `SELECT count(*) FROM origin_error_logs WHERE log_date = '2026-11-19' AND timestamp BETWEEN 0 AND ${start('2026-11-19')}`,
    // The table read twice, or under OR: the view holds every day (statement-bounds.ts says nothing).
    `SELECT (SELECT count(*) FROM origin_error_logs), count(*) FROM origin_error_logs WHERE timestamp >= ${start('2026-11-20')}`,
    `SELECT count(*) FROM origin_error_logs WHERE timestamp >= ${start('2026-11-20')} AND (SELECT count(*) FROM origin_error_logs) > 290`,
    `SELECT count(*) FROM origin_error_logs WHERE timestamp >= ${start('2026-11-20')} OR status_code = 501`,
    `SELECT count(*) FROM origin_error_logs o WHERE o.timestamp >= ${start('2026-11-19')} AND timestamp < ${start('2026-11-20')}`,
  ];

  it.each(same)('answers as the store does: %s', async (sql) => {
    const onStore = plain(await rowsOf(store, sql));
    expect(onStore.length).toBeGreaterThan(0);
    expect(plain(await rowsOf(history, sql))).toEqual(onStore);
  });

  // Before the tests below make files unreadable: this one reads every day.
  it('leaves no day out when a table function reads the table again (query_table, query)', async () => {
    const from = start('2026-11-20');
    const [[filtered]] = plain(
      await rowsOf(store, `SELECT count(*) FROM origin_error_logs WHERE timestamp >= ${from}`),
    ) as [[number]];
    const [[all]] = plain(await rowsOf(store, 'SELECT count(*) FROM origin_error_logs')) as [[number]];
    expect(all).toBeGreaterThan(filtered);
    for (const again of [`query_table('origin_error_logs')`, `query('SELECT * FROM origin_error_logs')`]) {
      const sql = `SELECT (SELECT count(*) FROM origin_error_logs WHERE timestamp >= ${from}), (SELECT count(*) FROM ${again})`;
      expect(plain(await rowsOf(history, sql))).toEqual([[filtered, all]]);
    }
  });

  it('finds a stray by `time` too', async () => {
    for (const [, , ts] of STRAYS) {
      const iso = new Date(ts).toISOString();
      const rows = await rowsOf(
        history,
        `SELECT count(*) FROM origin_error_logs WHERE "time" = '${iso}'::TIMESTAMP AND "time" >= '${iso}'::TIMESTAMP - INTERVAL 1 HOUR`,
      );
      expect(plain(rows)).toEqual([[1]]);
    }
  });

  /** The part of a zone-day (one each here). */
  const partOf = (zone: number, day: string) => {
    const dir = dayDir(root, 'origin_error_logs', zone, day);
    return join(
      dir,
      readdirSync(dir).find((n) => n.startsWith('part-'))!,
    );
  };

  it('guards the parts of the view only for a statement that may filter on `time` or `timestamp`', async () => {
    // The view's own text, read by the statement that made it (sqlite_master is no history table).
    const viewOf = async (where: string) => {
      const sql = `SELECT (SELECT count(*) FROM origin_error_logs ${where}) AS n, sql FROM sqlite_master WHERE type = 'view' AND name = 'origin_error_logs'`;
      const [[n, text]] = (await rowsOf(history, sql)) as [[bigint, string]];
      return { n: Number(n), text };
    };
    const all = await viewOf('');
    expect(all.n).toBe(DAYS.length * 2 * 48 + STRAYS.length);
    expect(all.text).not.toMatch(/BETWEEN/);
    // All files in one read_parquet, and the store's part.
    expect(all.text.match(/read_parquet/g)).toHaveLength(1);
    const byTime = await viewOf(`WHERE "time" >= '2026-11-20'`);
    expect(byTime.text).toMatch(/WHERE \(\("timestamp" BETWEEN/);
    expect(byTime.text.match(/read_parquet/g)).toHaveLength(DAYS.length);
    expect(byTime.n).toBe(48 * 2 + 2);
  });

  it('opens no file of a day the filter excludes', async () => {
    // Zone 8's file of 2026-11-19 made unreadable: a statement that needs it fails, one that filters its
    // day out by timestamp or time does not (the day's first file, zone 7's, is read only for the schema).
    writeFileSync(partOf(8, '2026-11-19'), 'not parquet');
    const day20 = `timestamp >= ${start('2026-11-20')} AND timestamp < ${start('2026-11-20') + 13 * H}`;
    expect(plain(await rowsOf(history, `SELECT count(*) FROM origin_error_logs WHERE ${day20}`))).toEqual([
      [52],
    ]);
    expect(
      plain(
        await rowsOf(
          history,
          `SELECT count(*) FROM origin_error_logs WHERE "time" >= '2026-11-20' AND "time" < '2026-11-20 13:00'`,
        ),
      ),
    ).toEqual([[52]]);
    await expect(rowsOf(history, `SELECT count(*) FROM origin_error_logs`)).rejects.toThrow(/parquet/i);
  });

  it("binds no file of a day the statement's own timestamp filter excludes", async () => {
    // Zone 7's file of 2026-11-19 (no stray: its marker is the day), which DuckDB opens for the day's
    // schema when it binds the day's part, made unreadable: a statement whose WHERE bounds `timestamp` to later days leaves the day out of
    // the view, so nothing opens it; by `time` alone the day is bound (and dropped by the optimizer).
    writeFileSync(partOf(7, '2026-11-19'), 'not parquet');
    const later = `timestamp >= ${start('2026-11-20') + 13 * H} AND timestamp < ${start('2026-11-20') + 14 * H}`;
    expect(plain(await rowsOf(history, `SELECT count(*) FROM origin_error_logs WHERE ${later}`))).toEqual([
      [5],
    ]);
    await expect(
      rowsOf(history, `SELECT count(*) FROM origin_error_logs WHERE "time" >= '2026-11-20 13:00'`),
    ).rejects.toThrow(/parquet/i);
  });
});
