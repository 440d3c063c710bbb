// Who `edgelog query` runs as on PostgreSQL, and whether that role may do more than read. A READ ONLY
// transaction stops writes to tables, not what a superuser may do besides (read the server's files,
// stop other sessions, change settings), nor a role that may write the archive from writing it
// outside edgelog: the query says so, so that readers get a role of their own (database.readerUrl).
import type pg from 'pg';

export interface ReaderRole {
  user: string;
  superuser: boolean;
  /** Tables of the current schema it may INSERT, UPDATE, DELETE or TRUNCATE (a few, for the message). */
  writableTables: string[];
  /** It may create objects in the current schema. */
  createsInSchema: boolean;
}

// Partitions are left out: a grant on a parent is what a role uses, and there are many partitions. One
// JSON text, so that the answer reads the same whatever type parsers the connection has (the query
// path's turn booleans into 1/0).
const ROLE_SQL = `SELECT json_build_object(
    'user', current_user,
    'superuser', coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false),
    'writableTables', ARRAY(SELECT c.relname::text FROM pg_class c
      WHERE c.relnamespace::regnamespace::text = current_schema() AND c.relkind IN ('r', 'p')
        AND NOT c.relispartition AND has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
      ORDER BY c.relname LIMIT 4),
    'createsInSchema', coalesce(has_schema_privilege(current_schema(), 'CREATE'), false))::text AS role`;

/** The connection's role and what it may do besides reading (one query, read-only). */
export async function readerRole(client: pg.ClientBase): Promise<ReaderRole> {
  const { rows } = await client.query<{ role: string }>(ROLE_SQL);
  return JSON.parse(rows[0]!.role) as ReaderRole;
}

/** Pure: the warning for a role that may do more than read, or null for one that may only read. */
export function readerRoleWarning(role: ReaderRole): string | null {
  const fix =
    'set database.readerUrl or EDGELOG_READER_DATABASE_URL to a role that may only read (docs/OPERATIONS.md: "A role for readers")';
  if (role.superuser) {
    return (
      `query runs as the role ${role.user}, a superuser (a query may read the server's files, stop ` +
      `other sessions and change settings, read-only transaction or not): ${fix}`
    );
  }
  if (role.writableTables.length > 0 || role.createsInSchema) {
    const what =
      role.writableTables.length > 0
        ? `may write the archive (${role.writableTables.slice(0, 3).join(', ')}${role.writableTables.length > 3 ? ', …' : ''})`
        : 'may create objects in its schema';
    return `query runs as the role ${role.user}, which ${what}: ${fix}`;
  }
  return null;
}
