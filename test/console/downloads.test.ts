// Downloads over real loopback HTTP, against the simulator's hostile archive (one day in the history's
// parts, one in the store): the SQL page's statement as `edgelog query --format ndjson|csv` writes it,
// byte for byte; its Parquet read back to the same rows; the explorer's whole current result as
// `edgelog export` writes those entries; bounded by the row limit; named from fixed words only.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { ndjsonEncoder } from '../../src/format/row-encoders.js';
import { sqlValue } from '../../src/history/duckdb-values.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { runCli } from '../support/cli.js';
import { describeStores } from '../support/stores.js';
import { consoleArchive, DAYS, serveArchive, SHIELD_201_VIEW, type ConsoleArchive } from './support.js';

const FILE_NAME = /^attachment; filename="edgelog-(query|origin|shield)-\d{8}T\d{6}Z\.(ndjson|csv|parquet)"$/;

describeStores('edgelog serve: downloads', (store) => {
  let a: ConsoleArchive;
  let server: ConsoleServer;
  let small: ConsoleServer;
  let dir: string;

  beforeAll(async () => {
    a = await consoleArchive(store);
    server = await serveArchive(a);
    small = await serveArchive(a, { downloadLimit: 5 });
    dir = mkdtempSync(join(tmpdir(), 'edgelog-downloads-test-'));
  }, 120_000);
  afterAll(async () => {
    await small?.close();
    await server?.close();
    await a?.h.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const download = async (path: string, params: Record<string, string>, on = server) => {
    const res = await fetch(new URL(`${path}?${new URLSearchParams(params).toString()}`, on.url));
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  };

  const cli = async (args: string[]) => {
    const r = await runCli(['--config', a.configPath, ...args], { cwd: a.h.dir });
    expect(r.stderr.replace(/^edgelog: (warning: query runs as the role|exported) .*\n/gm, '')).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };

  /** A Parquet file's rows as NDJSON, by the encoder `edgelog query` uses. */
  const parquetAsNdjson = async (body: Buffer): Promise<string> => {
    const file = join(dir, `read-${Math.random().toString(36).slice(2)}.parquet`);
    writeFileSync(file, body);
    const conn = await openDuckDb();
    try {
      const r = await conn.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
      const encoder = ndjsonEncoder(r.columnNames());
      return r
        .getRows()
        .map((row, i) => encoder.row(row.map(sqlValue), i))
        .join('');
    } finally {
      conn.closeSync();
    }
  };

  const SQL =
    'SELECT shield_zone_id, log_id, timestamp, time, url, message, country, log FROM shield_event_logs ORDER BY timestamp, log_id';

  it("downloads the SQL page's statement as `edgelog query` writes NDJSON and CSV, byte for byte", async () => {
    for (const format of ['ndjson', 'csv'] as const) {
      const { res, body } = await download('/api/v1/query/download', { sql: SQL, format });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(FILE_NAME);
      expect(res.headers.get('content-disposition')).toContain(`edgelog-query-`);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('edgelog-more')).toBe('false');
      const text = body.toString('utf8');
      expect(text).toBe(await cli(['query', '--format', format, SQL]));
      expect(Number(res.headers.get('edgelog-rows'))).toBeGreaterThan(50);
    }
  });

  it("downloads the SQL page's statement as Parquet holding the same rows", async () => {
    const { res, body } = await download('/api/v1/query/download', {
      sql: `${SQL}; -- a comment`,
      format: 'parquet',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(res.headers.get('content-disposition')).toMatch(FILE_NAME);
    expect(body.subarray(0, 4).toString()).toBe('PAR1');
    expect(await parquetAsNdjson(body)).toBe(await cli(['query', '--format', 'ndjson', SQL]));
  });

  it("downloads the explorer's whole result (every page), newest first, as `edgelog export` writes those entries", async () => {
    const view = SHIELD_201_VIEW;
    /** `edgelog export` of the same entries: zone 201's Shield events of both days. */
    const exported = (format: string) =>
      cli([
        'export',
        '--source',
        'shield',
        '--zone',
        '201',
        '--from',
        DAYS[0],
        '--to',
        DAYS[1],
        '--format',
        format,
      ]);
    const exportedNdjson = await exported('ndjson');
    const sorted = (text: string) => text.split('\n').filter(Boolean).sort();
    for (const format of ['ndjson', 'parquet'] as const) {
      // The page's own cursor and size do not cut the download.
      const { res, body } = await download('/api/v1/logs/download', { ...view, limit: '7', format });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/filename="edgelog-shield-/);
      const text = format === 'parquet' ? await parquetAsNdjson(body) : body.toString('utf8');
      expect(sorted(text)).toEqual(sorted(exportedNdjson));
      const stamps = text
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { timestamp: number }).timestamp);
      expect(stamps).toEqual([...stamps].sort((x, y) => y - x));
      expect(stamps.length).toBeGreaterThan(50);
    }
    const csv = await download('/api/v1/logs/download', { ...view, format: 'csv' });
    const exportedCsv = await exported('csv');
    const lines = (t: string) => t.split('\r\n');
    // The same header, the same (formula-neutralised) cells.
    expect(lines(csv.body.toString('utf8'))[0]).toBe(lines(exportedCsv)[0]);
    expect(lines(csv.body.toString('utf8')).sort()).toEqual(lines(exportedCsv).sort());
  });

  it('holds at most the row limit, and says there were more', async () => {
    const { res, body } = await download('/api/v1/query/download', { sql: SQL, format: 'ndjson' }, small);
    expect(res.headers.get('edgelog-rows')).toBe('5');
    expect(res.headers.get('edgelog-more')).toBe('true');
    expect(body.toString('utf8').split('\n').filter(Boolean)).toHaveLength(5);
    const parquet = await download('/api/v1/query/download', { sql: SQL, format: 'parquet' }, small);
    expect(parquet.res.headers.get('edgelog-rows')).toBe('5');
    expect((await parquetAsNdjson(parquet.body)).split('\n').filter(Boolean)).toHaveLength(5);
  });

  it.each([
    ['a write', { sql: 'DELETE FROM origin_error_logs', format: 'parquet' }, 'query refused'],
    [
      'a file outside the history',
      { sql: "SELECT * FROM read_text('/etc/passwd')", format: 'parquet' },
      'query refused',
    ],
    [
      'a statement that would close the COPY',
      { sql: "SELECT 1 AS a) TO '/tmp/edgelog-escape.csv' (FORMAT csv); SELECT (1", format: 'parquet' },
      'query failed',
    ],
    ['an unknown format', { sql: 'SELECT 1', format: 'html' }, 'bad request'],
  ])('refuses %s with a problem, no file', async (_what, params, title) => {
    const { res, body } = await download('/api/v1/query/download', params);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-disposition')).toBe(null);
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ title });
    expect(existsSync('/tmp/edgelog-escape.csv')).toBe(false);
  });

  it('refuses an explorer download whose filter it does not know', async () => {
    const { res } = await download('/api/v1/logs/download', {
      source: 'shield',
      from: '0',
      nope: 'x',
      format: 'csv',
    });
    expect(res.status).toBe(400);
  });

  it('names the file from fixed words, whatever the request says', async () => {
    const { res } = await download('/api/v1/query/download', {
      sql: `SELECT '"; filename=evil.html' AS "x\r\nSet-Cookie: a=b"`,
      format: 'csv',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(FILE_NAME);
    expect(res.headers.get('set-cookie')).toBe(null);
  });
});
