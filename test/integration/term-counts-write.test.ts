// writeTermCounts (sqlite/terms.ts) upserts a merge's counts many rows a statement: every row lands once,
// whatever the number of rows against the statement's width, counts already there are added to, and the
// key order it sorts in (JavaScript's, not SQLite's, past U+D7FF) changes nothing but locality.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { migrate } from '../../src/store/sqlite/migrate.js';
import { writeTermCounts } from '../../src/store/sqlite/terms.js';
import { PLAIN_TERM_FIELDS, TermCounter } from '../../src/store/terms.js';

const H = 3_600_000;
// Values whose UTF-16 and UTF-8 orders differ (U+FFFD sorts before an astral character in UTF-8 only).
const VALUES = ['FR', 'DE', '\uFFFD', '😀', 'é', '\uE000', ''];

let dir: string | undefined;
let db: Db | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function archive(): Db {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-term-write-'));
  db = openDatabase(join(dir, 'a.db'));
  migrate(db);
  return db;
}

/** `n` Shield rows of zone-distinct hours and values: about 6 term rows each (country, asn, 3 paths…). */
function counter(n: number, from = 0): TermCounter {
  const c = new TermCounter();
  const idx = Array.from({ length: n }, (_, i) => from + i);
  c.add(
    {
      n,
      timestamp: idx.map((i) => (i % 7) * H + i),
      url: idx.map((i) => `/p${i % 11}/${VALUES[i % VALUES.length]}${i}/x`),
      plain: [
        idx.map((i) => VALUES[i % VALUES.length]),
        idx.map((i) => String(64_500 + (i % 3))),
        idx.map(() => null),
        idx.map(() => null),
        idx.map((i) => (i % 2 ? 'GET' : 'POST')),
      ],
    },
    PLAIN_TERM_FIELDS.shield,
  );
  return c;
}

const expected = (zones: Map<number, TermCounter>, times = 1) =>
  [...zones]
    .flatMap(([zone, c]) => [...c.entries()].map((t) => [zone, t.field, t.value, t.hour, t.count * times]))
    .map((r) => JSON.stringify(r))
    .sort();

const stored = (d: Db) =>
  (
    d
      .prepare("SELECT zone_id, field, value, hour, count FROM term_hourly WHERE source = 'shield'")
      .raw(true)
      .all() as unknown[][]
  )
    .map((r) => JSON.stringify(r))
    .sort();

describe('writeTermCounts', () => {
  it.each([0, 1, 5, 6, 11, 40])('writes every row once for %i entries (statements full and partial)', (n) => {
    const d = archive();
    const zones = new Map([
      [3, counter(n)],
      [4, counter(Math.ceil(n / 2), 1_000)],
    ]);
    const want = expected(zones);
    // Rows below, at and above the statement's width of 32, and its multiples.
    if (n === 6) expect(want.length).toBeGreaterThan(32);
    d.transaction(() => writeTermCounts(d, 'shield', zones)).immediate();
    expect(stored(d)).toEqual(want);
  });

  it('adds to the counts already there', () => {
    const d = archive();
    const zones = new Map([[3, counter(40)]]);
    d.transaction(() => writeTermCounts(d, 'shield', zones)).immediate();
    d.transaction(() => writeTermCounts(d, 'shield', zones)).immediate();
    expect(stored(d)).toEqual(expected(zones, 2));
  });
});
