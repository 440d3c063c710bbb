// The SQLite archive a migration copies from: opened read-only, checked to be an edgelog archive with
// every migration applied, and read in one snapshot (one read transaction from the first batch to the
// last count), so the counts verified at the end are those of the rows copied, even if a worker writes
// to the file meanwhile.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { MigrateStoreError } from '../../errors/index.js';
import { openDatabase, type Db } from '../sqlite/database.js';
import { MIGRATIONS_DIR } from '../sqlite/migrate.js';
import { readMigrations } from '../migration-files.js';
import { NOT_COPIED, TABLES, type Total } from './tables.js';
import { groupKey } from './verify.js';

/** A source value as it reaches the COPY text. */
export type SourceValue = string | number | null;

export interface SqliteSource {
  /** The file's absolute path. */
  readonly path: string;
  /** The table's stored columns, in order (generated ones left out). */
  columns(table: string): string[];
  /**
   * The table's rows, `batchRows` at a time, in rowid (or key) order; the columns as asked. Reading
   * yields to the event loop every YIELD_ROWS rows, so a batch being written meanwhile goes on.
   */
  batches(table: string, columns: readonly string[], batchRows: number): AsyncGenerator<SourceValue[][]>;
  count(table: string): number;
  /** Rows (count) or a rollup's entries (sum of count) by the groups `groups` (SQL expressions). */
  groupTotals(table: string, groups: readonly string[], total: Total): Map<string, number>;
  /** Tables that are not edgelog's (made by hand): not copied, and named in the result. */
  readonly foreignTables: string[];
  /** Ledger rows whose lease is live at `now`: a worker may be writing the file. */
  liveLeases(now: number): number;
  /** The last write batch taken (0 for an archive from before batches). */
  lastBatch(): bigint;
  close(): void;
}

/** Rows read between two turns of the event loop (a few milliseconds of reading). */
const YIELD_ROWS = 1000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Opens and checks the archive at `file`; the snapshot starts here. */
export function openSqliteSource(file: string): SqliteSource {
  const path = resolve(file);
  if (!existsSync(path)) throw new MigrateStoreError(`--from ${file}: no such file`);
  let db: Db;
  try {
    db = openDatabase(path, { readonly: true });
  } catch (cause) {
    throw new MigrateStoreError(`--from ${file} cannot be read as an SQLite archive`, { cause });
  }
  let foreignTables: string[];
  try {
    db.exec('BEGIN');
    foreignTables = checkArchive(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  return {
    path,
    foreignTables,
    columns: (table) =>
      (db.pragma(`table_xinfo(${quote(table)})`) as Array<{ name: string; hidden: number }>)
        .filter((c) => c.hidden === 0)
        .map((c) => c.name),
    async *batches(table, columns, batchRows) {
      const withoutRowid = (
        db.pragma(`table_list(${quote(table)})`) as Array<{ name: string; wr: number }>
      ).some((t) => t.wr === 1);
      const stmt = db
        .prepare(
          `SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)}${withoutRowid ? '' : ' ORDER BY rowid'}`,
        )
        .raw(true);
      let batch: SourceValue[][] = [];
      for (const row of stmt.iterate() as Iterable<unknown[]>) {
        batch.push(row.map((v, i) => sourceValue(v, table, columns[i]!)));
        if (batch.length % YIELD_ROWS === 0) await setImmediate();
        if (batch.length >= batchRows) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    count: (table) =>
      db
        .prepare(`SELECT count(*) FROM ${quote(table)}`)
        .pluck()
        .get() as number,
    groupTotals(table, groups, total) {
      const list = groups.join(', ');
      const rows = db
        .prepare(
          `SELECT ${list}, ${total === 'rows' ? 'count(*)' : 'sum(count)'} FROM ${quote(table)} GROUP BY ${list}`,
        )
        .raw(true)
        .all() as unknown[][];
      return new Map(rows.map((r) => [groupKey(r.slice(0, -1)), Number(r.at(-1))]));
    },
    liveLeases: (now) =>
      db
        .prepare('SELECT count(*) FROM ingest_ledger WHERE lease_owner IS NOT NULL AND lease_until > ?')
        .pluck()
        .get(now) as number,
    lastBatch: () => {
      const has = db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'write_batch'")
        .get();
      if (has === undefined) return 0n;
      return BigInt(db.prepare('SELECT last FROM write_batch').pluck().get() as number);
    },
    close: () => db.close(),
  };
}

function sourceValue(v: unknown, table: string, column: string): SourceValue {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  // edgelog never stores a BLOB; one here was put there by hand.
  throw new MigrateStoreError(`${table}.${column} holds a BLOB, which edgelog never stores; remove it first`);
}

/**
 * An edgelog archive: schema_migrations records every migration this edgelog knows and no other, and
 * every edgelog table is there. Returns the tables that are not edgelog's.
 */
function checkArchive(db: Db, file: string): string[] {
  let tables: string[];
  try {
    tables = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .pluck()
      .all() as string[];
  } catch (cause) {
    throw new MigrateStoreError(`--from ${file} is not an edgelog archive: ${(cause as Error).message}`, {
      cause,
    });
  }
  if (!tables.includes('schema_migrations')) {
    throw new MigrateStoreError(
      `--from ${file} is not an edgelog archive (it has no schema_migrations table)`,
    );
  }
  const recorded = new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as number[]);
  const known = readMigrations(MIGRATIONS_DIR);
  const missing = known.filter((m) => !recorded.has(m.id));
  if (missing.length > 0) {
    throw new MigrateStoreError(
      `--from ${file} lacks migration ${missing.map((m) => m.name).join(', ')}: run \`edgelog migrate\` with database.path set to it first`,
    );
  }
  const newer = [...recorded].filter((id) => !known.some((m) => m.id === id));
  if (newer.length > 0) {
    throw new MigrateStoreError(
      `--from ${file} was migrated by a newer edgelog (migration ${newer.join(', ')}): run that version's migrate-store`,
    );
  }
  const expected = [...TABLES.map((t) => t.name), ...Object.keys(NOT_COPIED)];
  const absent = expected.filter((t) => !tables.includes(t));
  if (absent.length > 0) {
    throw new MigrateStoreError(`--from ${file} is not an edgelog archive (no table ${absent.join(', ')})`);
  }
  return tables.filter((t) => !expected.includes(t));
}
