// Whether the store finds an archive sound, below the level of rows. SQLite: `PRAGMA integrity_check`.
// PostgreSQL has no one statement for it; the nearest is the amcheck extension: bt_index_check with
// heapallindexed (every index well formed, every heap tuple in it) on each B-tree index, and verify_heapam
// on each table. amcheck is installed per database by a role that may create extensions (installAmcheck,
// called by a scene on its fresh database); where it is not installed, the PostgreSQL check is skipped and
// `integrityCheckName` says so.
import pg from 'pg';
import type { ArchiveReader } from '../../support/archive-reader.js';
import { sample } from './sample.js';

/** The schema amcheck is installed into, away from the archive's own tables and functions. */
const AMCHECK_SCHEMA = 'edgelog_amcheck';

/**
 * Installs amcheck into the database at `url`. Returns null when it is there, else why it is not (the
 * extension is not available on the server, or the role may not create it).
 */
export async function installAmcheck(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${AMCHECK_SCHEMA}`);
    await client.query(`CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA ${AMCHECK_SCHEMA}`);
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end();
  }
}

/** The schema amcheck is installed in, or null. */
async function amcheckSchema(db: ArchiveReader): Promise<string | null> {
  const schema = await db.value(
    `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'amcheck'`,
  );
  return typeof schema === 'string' ? schema : null;
}

/** What the integrity check of this archive consists of, for a report's notes. */
export async function integrityCheckName(db: ArchiveReader): Promise<string> {
  if (db.store === 'sqlite') return 'PRAGMA integrity_check';
  return (await amcheckSchema(db)) === null
    ? 'none (amcheck is not installed in the database)'
    : 'amcheck: bt_index_check(heapallindexed) on every B-tree index, verify_heapam on every table';
}

/** What the store finds wrong with the archive's files, tables or indexes; [] when it finds nothing. */
export async function integrityProblems(db: ArchiveReader): Promise<string[]> {
  if (db.store === 'sqlite') {
    const rows = await db.all<{ integrity_check: string }>('PRAGMA integrity_check');
    const integrity = rows.map((r) => r.integrity_check);
    return integrity.join() === 'ok' ? [] : [`integrity_check: ${sample(integrity)}`];
  }
  const schema = await amcheckSchema(db);
  if (schema === null) return [];
  const fn = (name: string) => `${pg.escapeIdentifier(schema)}.${name}`;
  const problems: string[] = [];
  // Leaf relations only: a partitioned table or index has no storage of its own to check.
  const indexes = await db.all<{ name: string }>(
    `SELECT c.oid::regclass::text AS name
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
     WHERE a.amname = 'btree' AND c.relkind = 'i' AND i.indisvalid AND i.indisready
       AND c.relnamespace = current_schema()::regnamespace
     ORDER BY 1`,
  );
  for (const { name } of indexes) {
    try {
      await db.all(`SELECT ${fn('bt_index_check')}(?::regclass, true)`, name);
    } catch (err) {
      problems.push(`amcheck: index ${name}: ${(err as Error).message}`);
    }
  }
  const tables = await db.all<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
  );
  for (const { name } of tables) {
    const corrupt = await db.all<{ blkno: number; offnum: number | null; msg: string }>(
      `SELECT blkno, offnum, msg FROM ${fn('verify_heapam')}(?::regclass)`,
      name,
    );
    if (corrupt.length > 0) {
      problems.push(
        `amcheck: table ${name}: ${sample(corrupt.map((c) => `block ${c.blkno} item ${c.offnum}: ${c.msg}`))}`,
      );
    }
  }
  return problems;
}
