import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadOnly, openReadOnlyConnection, verifiedRead } from '../../src/store/sqlite/read-only.js';
import { QueryError } from '../../src/query/query-error.js';
import { SnapshotChangedError } from '../../src/store/sqlite/snapshot-changed-error.js';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { runQuery, type QueryOptions } from '../../src/query/run-query.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import {
  memoryOutput,
  originEntry,
  storeOrigin,
  tempArchive,
  times,
  type TempArchive,
} from '../report/fixture.js';

let t: TempArchive;
let db: Db;

beforeEach(() => {
  t = tempArchive();
  storeOrigin(t.archive, 101, [
    ...times(3, () =>
      originEntry('2024-10-15T10:15:00Z', { url: 'https://a/x,"y"', status: 502, code: 'e1' }),
    ),
    originEntry('2024-10-15T11:00:00Z', null),
  ]);
  db = openReadOnly(t.path);
});

afterEach(() => {
  if (db.open) db.close();
  t.cleanup();
});

async function run(sql: string, opts: QueryOptions = {}) {
  const out = memoryOutput();
  const result = await runQuery(db, sql, opts, out);
  return { ...result, text: out.text(), chunks: out.chunks };
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('edgelog query: read-only', () => {
  it.each([
    ['INSERT', `INSERT INTO origin_hourly VALUES (1, 0, 500, 'x', 1)`],
    [
      'INSERT … RETURNING (returns rows, still a write)',
      `INSERT INTO origin_hourly VALUES (1, 0, 500, 'x', 1) RETURNING *`,
    ],
    ['UPDATE', 'UPDATE origin_error_logs SET message = NULL'],
    ['DELETE', 'DELETE FROM origin_error_logs'],
    [
      'a CTE that deletes',
      'WITH old AS (SELECT id FROM origin_error_logs) DELETE FROM origin_error_logs WHERE id IN old',
    ],
    ['DROP TABLE', 'DROP TABLE origin_error_logs'],
    ['CREATE TABLE', 'CREATE TABLE evil (x)'],
    ['CREATE TEMP TABLE', 'CREATE TEMP TABLE scratch (x)'],
    ['CREATE INDEX', 'CREATE INDEX i ON origin_error_logs (message)'],
    ['VACUUM', 'VACUUM'],
    ['ANALYZE', 'ANALYZE'],
    ['REINDEX', 'REINDEX'],
    ['PRAGMA that writes the header', 'PRAGMA user_version = 7'],
    ['PRAGMA journal_mode', 'PRAGMA journal_mode = DELETE'],
  ])('refuses %s before running it; the file is byte-identical', async (_name, sql) => {
    // Checkpoint everything into the main file first, so its bytes are the whole archive.
    t.archive.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = sha256(t.path);
    const counts = db
      .prepare('SELECT (SELECT count(*) FROM origin_error_logs), (SELECT count(*) FROM origin_hourly)')
      .raw()
      .get();
    await expect(run(sql)).rejects.toThrow(
      new QueryError('query refused: it would modify the archive (edgelog query is read-only)'),
    );
    expect(sha256(t.path)).toBe(before);
    expect(
      db
        .prepare('SELECT (SELECT count(*) FROM origin_error_logs), (SELECT count(*) FROM origin_hourly)')
        .raw()
        .get(),
    ).toEqual(counts);
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name IN ('evil', 'i')`).pluck().get()).toBe(
      0,
    );
    expect(t.archive.db.pragma('user_version', { simple: true })).toBe(0);
  });

  it.each([
    ['BEGIN', 'BEGIN'],
    ['ATTACH', `ATTACH 'other.db' AS other`],
    ['a PRAGMA that turns query_only off', 'PRAGMA query_only = OFF'],
  ])('refuses %s: it returns no rows', async (_name, sql) => {
    await expect(run(sql)).rejects.toThrow('query refused: the statement returns no rows');
    // query_only is still on.
    expect(db.pragma('query_only', { simple: true })).toBe(1);
  });

  it('the connection itself cannot write, even bypassing the checks', () => {
    expect(db.readonly).toBe(true);
    expect(() => db.prepare('DELETE FROM origin_error_logs').run()).toThrow(/readonly|read-only/i);
    expect(t.archive.db.prepare('SELECT count(*) FROM origin_error_logs').pluck().get()).toBe(4);
  });

  it('refuses more than one statement and runs none of them', async () => {
    await expect(run('SELECT 1; DELETE FROM origin_error_logs')).rejects.toThrow(
      'query refused: the SQL holds more than one statement; run them one at a time',
    );
    await expect(run('SELECT 1; SELECT 2')).rejects.toThrow('more than one statement');
    expect(t.archive.db.prepare('SELECT count(*) FROM origin_error_logs').pluck().get()).toBe(4);
  });

  it('accepts one statement with a trailing semicolon and comment', async () => {
    expect((await run('SELECT 1 AS one; -- done\n', { format: 'csv' })).text).toBe('one\r\n1\r\n');
  });

  it.each([
    ['empty', '', 'query refused: the SQL holds no statement'],
    ['only a comment', '-- nothing', 'query refused: the SQL holds no statement'],
  ])('refuses %s SQL', async (_name, sql, message) => {
    await expect(run(sql)).rejects.toThrow(message);
  });

  it.each([
    ['a syntax error', 'SELEC 1', 'near "SELEC": syntax error'],
    ['an unknown table', 'SELECT * FROM nope', 'no such table: nope'],
    ['an unknown column', 'SELECT nope FROM origin_error_logs', 'no such column: nope'],
    ['a runtime error while stepping', `SELECT json_extract('{bad', '$.a')`, 'malformed JSON'],
  ])('reports %s as "query failed" with SQLite\'s message as the cause', async (_name, sql, message) => {
    const err = await run(sql, { format: 'json' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryError);
    expect((err as QueryError).message).toBe('query failed');
    expect(((err as QueryError).cause as Error).message).toContain(message);
  });

  it('reads the last committed state while a writer holds an open transaction (WAL)', async () => {
    const writer = openDatabase(t.path);
    try {
      writer.exec('BEGIN IMMEDIATE');
      writer.prepare('DELETE FROM origin_error_logs').run();
      writer.prepare(`INSERT INTO origin_hourly VALUES (999, 0, 500, 'uncommitted', 5)`).run();
      // The writer holds the write lock; the reader neither waits nor sees the uncommitted change.
      const r = await run('SELECT count(*) AS n FROM origin_error_logs', { format: 'ndjson' });
      expect(r.text).toBe('{"n":4}\n');
      const z = await run('SELECT count(*) AS n FROM origin_hourly WHERE pull_zone_id = 999', {
        format: 'ndjson',
      });
      expect(z.text).toBe('{"n":0}\n');
      writer.exec('COMMIT');
      expect((await run('SELECT count(*) AS n FROM origin_error_logs', { format: 'ndjson' })).text).toBe(
        '{"n":0}\n',
      );
    } finally {
      writer.close();
    }
  });

  it('fails with a clear message when the file does not exist', () => {
    expect(() => openReadOnly(`${t.dir}/missing.db`)).toThrow(
      /cannot open the database .*missing\.db: no such file \(run `edgelog sync`/,
    );
  });
});

describe('edgelog query: an archive no one has open', () => {
  const beside = () => readdirSync(t.dir).sort();
  beforeEach(async () => {
    db.close();
    await t.archive.close(); // the last connection folds the WAL into the file and removes -wal and -shm
    expect(beside()).toEqual(['archive.db']);
  });

  it('is read without creating -wal or -shm beside it', async () => {
    db = openReadOnly(t.path);
    expect((await run('SELECT count(*) AS n FROM origin_error_logs', { format: 'ndjson' })).text).toBe(
      '{"n":4}\n',
    );
    db.close();
    expect(beside()).toEqual(['archive.db']);
  });

  it('is read as a snapshot that fails loudly if a writer changes the file meanwhile', async () => {
    const conn = openReadOnlyConnection(t.path);
    db = conn.db;
    expect(conn.snapshot).toBe(true);
    conn.verify(); // unchanged
    const writer = openArchive(t.path);
    try {
      storeOrigin(
        writer,
        202,
        times(500, () => originEntry('2024-10-16T10:00:00Z', { status: 500 })),
      );
      writer.db.pragma('wal_checkpoint(TRUNCATE)'); // the pages reach the file the snapshot reads
    } finally {
      await writer.close();
    }
    expect(() => conn.verify()).toThrow(SnapshotChangedError);
    // Through a query: nothing is written, and the change is the error, not what SQLite made of it.
    const out = memoryOutput();
    const err = await verifiedRead(conn, out, (d, o) => runQuery(d, 'SELECT * FROM origin_error_logs', {}, o))
      .then(() => null)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotChangedError);
    expect((err as Error).message).toBe(
      `the archive ${t.path} changed while it was read without locks (edgelog began writing to it): ` +
        'the result may mix old and new rows; run it again',
    );
    expect(out.text()).toBe('');
  });

  it('a live archive (a -wal beside it) is read through the WAL, with locks', () => {
    const writer = openArchive(t.path);
    try {
      const conn = openReadOnlyConnection(t.path);
      db = conn.db;
      expect(conn.snapshot).toBe(false);
    } finally {
      db.close();
      void writer.close();
    }
  });
});

describe('edgelog query: formats', () => {
  const sql = `SELECT pull_zone_id AS zone, request_url, status_code, error_code, time FROM origin_error_logs
    ORDER BY timestamp, id LIMIT 2`;

  it('table (default): aligned, with a row count', async () => {
    const r = await run(sql);
    expect(r.text).toBe(
      [
        'zone  request_url      status_code  error_code  time',
        ' 101  https://a/x,"y"          502  e1          2024-10-15T10:15:00.000Z',
        ' 101  https://a/x,"y"          502  e1          2024-10-15T10:15:00.000Z',
        '(2 rows)',
        '',
      ].join('\n'),
    );
  });

  it('json: an array of objects', async () => {
    const r = await run(sql, { format: 'json' });
    expect(JSON.parse(r.text)).toEqual([
      {
        zone: 101,
        request_url: 'https://a/x,"y"',
        status_code: 502,
        error_code: 'e1',
        time: '2024-10-15T10:15:00.000Z',
      },
      {
        zone: 101,
        request_url: 'https://a/x,"y"',
        status_code: 502,
        error_code: 'e1',
        time: '2024-10-15T10:15:00.000Z',
      },
    ]);
  });

  it('ndjson: one object per line', async () => {
    const r = await run(`SELECT pull_zone_id AS zone, status_code FROM origin_error_logs ORDER BY id`, {
      format: 'ndjson',
    });
    expect(r.text).toBe(
      '{"zone":101,"status_code":502}\n{"zone":101,"status_code":502}\n{"zone":101,"status_code":502}\n{"zone":101,"status_code":null}\n',
    );
  });

  it('csv: header and RFC 4180 quoting', async () => {
    const r = await run(sql, { format: 'csv' });
    expect(r.text).toBe(
      'zone,request_url,status_code,error_code,time\r\n' +
        '101,"https://a/x,""y""",502,e1,2024-10-15T10:15:00.000Z\r\n'.repeat(2),
    );
  });

  it('SQLite values of every kind, in every format', async () => {
    const q = `SELECT 9007199254740993 AS big, 1.25 AS real, NULL AS nil, x'00FF' AS blob, 'a,b' AS text`;
    expect((await run(q, { format: 'ndjson' })).text).toBe(
      '{"big":9007199254740993,"real":1.25,"nil":null,"blob":"00FF","text":"a,b"}\n',
    );
    expect((await run(q, { format: 'csv' })).text).toBe(
      'big,real,nil,blob,text\r\n9007199254740993,1.25,,00FF,"a,b"\r\n',
    );
    expect((await run(q)).text).toBe(
      '             big  real  nil   blob       text\n9007199254740993  1.25  NULL  <2 bytes>  a,b\n(1 row)\n',
    );
  });

  it('an empty result in every format', async () => {
    const q = 'SELECT id FROM origin_error_logs WHERE 0';
    expect((await run(q)).text).toBe('id\n(0 rows)\n');
    expect((await run(q, { format: 'json' })).text).toBe('[]\n');
    expect((await run(q, { format: 'ndjson' })).text).toBe('');
    expect((await run(q, { format: 'csv' })).text).toBe('id\r\n');
  });

  const series = (n: number) =>
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n}) SELECT i FROM s`;

  it('table: shows --limit rows (1000 by default) and says that there are more', async () => {
    const r = await run(series(1234));
    expect(r.rows).toBe(1000);
    expect(r.more).toBe(true);
    expect(r.text.split('\n').slice(-2)[0]).toBe(
      '(the first 1,000 rows shown; there are more: raise --limit, or use --format csv|ndjson|json for all)',
    );
    const small = await run(series(5), { limit: 2 });
    expect(small.text).toBe(
      'i\n1\n2\n(the first 2 rows shown; there are more: raise --limit, or use --format csv|ndjson|json for all)\n',
    );
    // Exactly `limit` rows: nothing more to say.
    expect((await run(series(2), { limit: 2 })).text).toBe('i\n1\n2\n(2 rows)\n');
    expect(await run(series(1234), { limit: 0 })).toMatchObject({ rows: 1234, more: false });
  });

  it('every format stops reading at --limit: the rest of the result is never computed', async () => {
    // A function in the result counts the rows SQLite computed.
    let computed = 0;
    db.function('computed', () => ++computed);
    const q =
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT x, computed() AS n FROM c';
    const r = await run(q, { limit: 3 });
    expect(r.text.split('\n').slice(-2)[0]).toMatch(/^\(the first 3 rows shown; there are more/);
    expect(computed).toBe(4); // the three shown, and one to know there are more
    computed = 0;
    expect(await run(q)).toMatchObject({ rows: 1000, more: true });
    expect(computed).toBe(1001);
    computed = 0;
    expect(await run(q, { format: 'ndjson', limit: 2 })).toMatchObject({ rows: 2, more: true });
    expect(computed).toBe(3);
  });

  it('streaming formats write every row by default, in chunks, and stop at --limit when given', async () => {
    const all = await run(series(200_000), { format: 'ndjson' });
    expect(all.rows).toBe(200_000);
    expect(all.text.split('\n')).toHaveLength(200_001);
    // Written as it goes, not built whole.
    expect(all.chunks.length).toBeGreaterThan(10);
    expect(Math.max(...all.chunks.map((c) => c.length))).toBeLessThan(70 * 1024);
    const csv = await run(series(200_000), { format: 'csv', limit: 3 });
    expect(csv.text).toBe('i\r\n1\r\n2\r\n3\r\n');
    const json = await run(series(10), { format: 'json', limit: 2 });
    expect(JSON.parse(json.text)).toEqual([{ i: 1 }, { i: 2 }]);
  });

  it('the views of migration 0002 can be queried', async () => {
    const r = await run('SELECT hour, status_class, count FROM origin_errors_hourly ORDER BY hour', {
      format: 'json',
    });
    expect(JSON.parse(r.text)).toEqual([
      { hour: '2024-10-15T10:00:00Z', status_class: '5xx', count: 3 },
      { hour: '2024-10-15T11:00:00Z', status_class: null, count: 1 },
    ]);
  });
});
