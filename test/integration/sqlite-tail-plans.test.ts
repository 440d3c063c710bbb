// The rows above the flush watermark are found by the batch index on SQLite, whatever else a statement
// filters on: SQLite has no statistics, and took the key index for a zone (or a time range), reading
// every row of the zone to find the few recent ones (the flush's pages went the same way:
// test/history/flush-page-sqlite.test.ts). The plans are SQLite's own answer (EXPLAIN QUERY PLAN) on a
// migrated archive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeRowsSql } from '../../src/history/store-rows-sql.js';
import { openArchive, type Archive } from '../../src/store/sqlite/archive.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-plans-'));
  const archive: Archive = openArchive(join(dir, 'a.db'));
  await archive.close();
  db = openDatabase(join(dir, 'a.db'), { readonly: true });
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string, args: Record<string, unknown> = {}) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(args) as Array<{ detail: string }>).map((r) => r.detail);

describe('SQLite reads the rows above the watermark by the batch index', () => {
  it.each(['origin_error_logs', 'shield_event_logs'] as const)(
    '%s: a statement on one zone, one day and one hour',
    (table) => {
      const sql = storeRowsSql(
        table,
        [],
        { zones: [201], from: '2026-11-28', to: '2026-11-28' },
        { min: 1_795_870_800_000n, max: 1_795_874_399_999n },
        40n,
        'sqlite',
      );
      expect(plan(sql)).toEqual([expect.stringContaining(`USING INDEX ${table}_batch (batch>?)`)]);
    },
  );

  it('PostgreSQL is left to its planner (it has statistics), and no watermark means no batch', () => {
    expect(storeRowsSql('origin_error_logs', [], {}, null, 40n, 'postgres')).not.toContain('INDEXED BY');
    expect(storeRowsSql('origin_error_logs', [], {}, null, 0n, 'sqlite')).not.toContain('INDEXED BY');
  });
});
