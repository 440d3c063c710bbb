// The secrets scan of a PostgreSQL archive: its files are the server's, so every table's rows are searched
// as text instead (`t::text`, every column), on the server, for each secret in each form. Leaf tables
// only: a partitioned table's rows are those of its partitions, and each partition is scanned.
import type { ArchiveReader } from '../../support/archive-reader.js';
import type { SecretScan } from './secrets.js';

/** Tables and materialized views of every schema but the server's own. */
const TABLES_SQL = `
  SELECT c.oid::regclass::text AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'm')
    AND n.nspname NOT IN ('pg_catalog', 'information_schema')
    AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
  ORDER BY 1`;

/** Scans every table of the PostgreSQL archive behind `db`; returns how many tables it scanned. */
export async function scanTables(scan: SecretScan, db: ArchiveReader): Promise<number> {
  if (db.store !== 'postgres') throw new TypeError('scanTables reads a PostgreSQL archive');
  const forms = scan.forms();
  const tables = await db.all<{ name: string }>(TABLES_SQL);
  const found = forms.map((_, i) => `, bool_or(strpos(r, ?) > 0) AS f${i}`).join('');
  for (const { name } of tables) {
    // `name` comes from the catalog as regclass text: quoted where it must be.
    const [row] = await db.all<Record<string, unknown>>(
      `SELECT coalesce(sum(octet_length(r)), 0) AS bytes${found}
       FROM (SELECT t::text AS r FROM ${name} t) s`,
      ...forms.map((f) => f.form),
    );
    scan.record(
      `table ${name}`,
      Number(row!.bytes),
      forms.filter((_, i) => row![`f${i}`] === true),
    );
  }
  return tables.length;
}
