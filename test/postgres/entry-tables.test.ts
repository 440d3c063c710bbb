// The one list of the entry tables' columns (src/store/entry-tables.ts) is the tables both stores
// migrate: every stored column (not `id`, not the generated `time`), in the table's order, of its kind.
// The history files take this order (history-columns.ts), so a list that drifts from the schema fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY_TABLES, type FileColumn } from '../../src/store/entry-tables.js';
import { HISTORY_COLUMNS } from '../../src/store/history-columns.js';
import { openStore } from '../../src/store/open-store.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { createTestDatabase, testServer } from './support/server.js';

const TABLES = Object.values(ENTRY_TABLES);
const kindOf = (type: string): FileColumn['kind'] => (/int/i.test(type) ? 'int' : 'text');

describe('entry tables', () => {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-entry-tables-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(TABLES)('$table: the SQLite schema, in order', async (t) => {
    const path = join(dir, `${t.source}.db`);
    await (await openStore({ path })).close();
    const db = openDatabase(path);
    try {
      const info = db.prepare(`SELECT name, type, hidden FROM pragma_table_xinfo(?)`).all(t.table) as Array<{
        name: string;
        type: string;
        hidden: number;
      }>;
      // `id` and `batch` are the store's own (the batch: write-batch.ts), not the entry's.
      const stored = info.filter((c) => c.name !== 'id' && c.name !== 'batch' && c.hidden === 0);
      expect(t.fileColumns).toEqual(stored.map((c) => ({ name: c.name, kind: kindOf(c.type) })));
    } finally {
      db.close();
    }
  });

  it.each(TABLES)('$table: the PostgreSQL schema, in order', async (t) => {
    const server = await testServer();
    if (server === null) return; // no server: conformance-postgres says so
    const database = await createTestDatabase(server);
    try {
      await (await openPostgresStore({ url: database.url, max: 1 })).close();
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string; type: string }>(
          `SELECT column_name AS name, data_type AS type FROM information_schema.columns
           WHERE table_name = $1 AND column_name NOT IN ('id', 'batch') AND is_generated = 'NEVER' ORDER BY ordinal_position`,
          [t.table],
        );
        expect(t.fileColumns).toEqual(rows.map((c) => ({ name: c.name, kind: kindOf(c.type) })));
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
    }
  });

  it.each(TABLES)('$table: the writers fill each stored column once, the history reads them all', (t) => {
    expect([t.zoneColumn, 'log_date', ...t.columns].sort()).toEqual(t.fileColumns.map((c) => c.name).sort());
    expect(HISTORY_COLUMNS[t.table].columns.map(([name]) => name)).toEqual(t.fileColumns.map((c) => c.name));
    expect(t.key).toEqual([t.zoneColumn, 'timestamp', 'log_id']);
  });
});
