// One part written from the store's JSON lines (src/history/part-file.ts) against a real DuckDB and
// real files: a row of any size is read (DuckDB's JSON reader refuses a line longer than twice its
// maximum_object_size, 16 MiB by default), and what the file holds verifies against the keys given: the
// key checksum read back from a key file (key-readback.ts) is the one read as values, whatever the keys
// hold, and a row whose text differs from its key is not published.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksumOf, readFile, writePart, type PartInput } from '../../src/history/part-file.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { KeyChecksum, type KeyPart } from '../../src/history/checksum.js';
import { fileKeyChecksum } from '../../src/history/key-readback.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import { QUARANTINE_SHAPE, SHIELD_SHAPE } from '../../src/store/history-columns.js';
import { historyPage } from '../../src/store/history-page.js';
import type { HistoryBytesPage, HistoryPage, HistoryValue } from '../../src/store/history-store.js';

/** A Shield row in the file's columns, as a page's row: its key, then its JSON array text. */
function row(logId: string, timestamp: number, message: string): HistoryValue[] {
  const values = SHIELD_SHAPE.columns.map((c) =>
    c.name === 'shield_zone_id'
      ? 201
      : c.name === 'log_id'
        ? logId
        : c.name === 'log_date'
          ? '2026-11-20'
          : c.name === 'timestamp'
            ? timestamp
            : c.name === 'message'
              ? message
              : null,
  );
  return [201, timestamp, logId, JSON.stringify(values)];
}

/** The rows as one page, as the async iterable the compactor hands over. */
function pages(...rows: HistoryValue[][]): AsyncIterable<HistoryPage> {
  return {
    [Symbol.asyncIterator]: () => {
      const it = [historyPage(rows)][Symbol.iterator]();
      return { next: () => Promise.resolve(it.next()) };
    },
  };
}

/** The rows as one page of bytes (SQLite's flush pages), `rows` its count. */
function bytesPages(rows: HistoryValue[][], count = rows.length): AsyncIterable<HistoryBytesPage> {
  const lines = rows.map((r) => `${String(r[3])}\n`).join('');
  const keys = rows.map((r) => r.slice(0, 3).join('\u0000'));
  const page: HistoryBytesPage = {
    rows: count,
    lines: Buffer.from(lines),
    keyLines: Buffer.from(keys.map((k) => `${Buffer.byteLength(k)}:${k}\n`).join('')),
    longestBytes: Math.max(...lines.split('\n').map((l) => Buffer.byteLength(l))),
  };
  return {
    [Symbol.asyncIterator]: () => {
      const it = [page][Symbol.iterator]();
      return { next: () => Promise.resolve(it.next()) };
    },
  };
}

/** A part of batches [1, 2) of `dir`. */
const part = (dir: string, p: AsyncIterable<HistoryPage | HistoryBytesPage>): PartInput => ({
  shape: SHIELD_SHAPE,
  dir,
  lo: 1n,
  hi: 2n,
  pages: p,
  parquet: DEFAULT_PARQUET_OPTIONS.shield_event_logs,
});

describe('a part', () => {
  let duck: DuckDBConnection;
  let root: string;
  beforeAll(async () => {
    duck = await openDuckDb();
    root = mkdtempSync(join(tmpdir(), 'edgelog-day-file-'));
  });
  afterAll(() => {
    duck?.closeSync();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['values', '2026-11-20'],
    ['bytes', '2026-11-26'],
  ] as const)(
    'holds a row longer than DuckDB reads by default (36 MB of text), verified: a page of %s',
    async (form, day) => {
      // Three UTF-8 bytes per character: 36 MB in 12 million characters.
      const huge = '日'.repeat(12_000_000);
      const dir = join(root, 'shield_event_logs', 'zone=201', `day=${day}`);
      const rows = [row('a', 1, 'small'), row('b', 2, huge), row('c', 3, 'small')];
      const file = await writePart(duck, part(dir, form === 'values' ? pages(...rows) : bytesPages(rows)));
      // Its batches and timestamps in its name; private to the archive's owner and group.
      expect(file).toMatchObject({ rows: 3, name: 'part-1-2_1_3.parquet' });
      expect(statSync(join(dir, file!.name)).mode & 0o777).toBe(0o640);
      const read = await duck.runAndReadAll(
        `SELECT log_id, length(message) FROM ${readFile(join(dir, file!.name))} ORDER BY log_id`,
      );
      expect(read.getRows()).toEqual([
        ['a', 5n],
        ['b', 12_000_000n],
        ['c', 5n],
      ]);
      // The temporary files are gone.
      expect(readdirSync(dir)).toEqual([file!.name]);
    },
  );

  it('reads back the key checksum a reader sees, whatever the keys hold, as reading the keys as values does', async () => {
    const odd = [
      'a:b',
      'new\nline',
      '12:x\n',
      'nul\u0000x',
      'é 日本 🙂',
      '\ufeffbom',
      'q"uote \\ \r\t',
      '',
      'x'.repeat(2_500_000),
    ];
    const dir = join(root, 'shield_event_logs', 'zone=201', 'day=2026-11-21');
    const file = await writePart(duck, part(dir, pages(...odd.map((id, i) => row(id, i, 'm')))));
    expect(file).toMatchObject({ rows: odd.length });
    const path = join(dir, file!.name);
    const slow = await checksumOf(duck, SHIELD_SHAPE, path);
    expect(slow).toBe(file!.checksum);
    expect(await fileKeyChecksum(duck, SHIELD_SHAPE, readFile(path), join(dir, 'keys.tmp'))).toBe(slow);
    expect(readdirSync(dir)).not.toContain('keys.tmp');

    // Six key parts, NULLs among them (joined as empty, as KeyChecksum.add joins them).
    const q = join(root, 'quarantine.parquet');
    const cols = QUARANTINE_SHAPE.columns.map(
      (c) => `"${c.name}" ${c.kind === 'int' ? 'BIGINT' : 'VARCHAR'}`,
    );
    await duck.run(`CREATE TEMP TABLE q (${cols.join(', ')})`);
    const insert = await duck.prepare(`INSERT INTO q (source, zone_id, log_date, page, position, raw_hash)
      VALUES ($1, $2, '2026-11-21', $3, $4, $5)`);
    const fromStore = new KeyChecksum();
    for (const [i, hash] of [...odd, null].entries()) {
      fromStore.add([
        i === 3 ? 'sh:ield' : 'shield',
        i === 4 ? null : 201n,
        '2026-11-21',
        i,
        -i,
        hash,
      ] as KeyPart[]);
      insert.bindVarchar(1, i === 3 ? 'sh:ield' : 'shield');
      if (i === 4) insert.bindNull(2);
      else insert.bindBigInt(2, 201n);
      insert.bindBigInt(3, BigInt(i));
      insert.bindBigInt(4, -BigInt(i));
      if (hash === null) insert.bindNull(5);
      else insert.bindVarchar(5, hash);
      await insert.run();
    }
    await duck.run(`COPY q TO '${q}' (FORMAT parquet)`);
    const qSlow = await checksumOf(duck, QUARANTINE_SHAPE, q);
    expect(qSlow).toBe(fromStore.digest());
    expect(await fileKeyChecksum(duck, QUARANTINE_SHAPE, readFile(q), join(root, 'q.keys'))).toBe(qSlow);
  });

  it('publishes nothing when a row in the file differs from its key in the store (a garbled line)', async () => {
    const dir = join(root, 'shield_event_logs', 'zone=201', 'day=2026-11-22');
    const garbled = row('b', 2, 'm');
    // The line says log_id 'B', the store's key column 'b': the file would hold a row the store has not.
    garbled[3] = String(garbled[3]).replace('"b"', '"B"');
    await expect(
      writePart(duck, part(dir, pages(row('a', 1, 'm'), garbled, row('c', 3, 'm')))),
    ).rejects.toThrow(/did not verify against its rows/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes a page of bytes as it came, and verifies it against its framed keys', async () => {
    const dir = join(root, 'shield_event_logs', 'zone=201', 'day=2026-11-23');
    const ids = ['a', 'new\nline', '3:x', 'é 日本'];
    const file = await writePart(duck, part(dir, bytesPages(ids.map((id, i) => row(id, i, 'm')))));
    const sum = new KeyChecksum();
    for (const [i, id] of ids.entries()) sum.add([201, i, id]);
    expect(file).toMatchObject({ rows: ids.length, checksum: sum.digest() });
    const read = await duck.runAndReadAll(
      `SELECT log_id FROM ${readFile(join(dir, file!.name))} ORDER BY "timestamp"`,
    );
    expect(read.getRows().map(([id]) => id)).toEqual(ids);
  });

  it('publishes nothing when a line of a page of bytes differs from its framed key', async () => {
    const dir = join(root, 'shield_event_logs', 'zone=201', 'day=2026-11-24');
    const garbled = row('b', 2, 'm');
    garbled[3] = String(garbled[3]).replace('"b"', '"B"');
    await expect(
      writePart(duck, part(dir, bytesPages([row('a', 1, 'm'), garbled, row('c', 3, 'm')]))),
    ).rejects.toThrow(/did not verify against its rows/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('publishes nothing when a page of bytes has fewer keys than the rows it counts', async () => {
    const dir = join(root, 'shield_event_logs', 'zone=201', 'day=2026-11-25');
    await expect(
      writePart(duck, part(dir, bytesPages([row('a', 1, 'm'), row('b', 2, 'm')], 3))),
    ).rejects.toThrow(/a page of 3 rows came with 2 keys/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
