// The store's read-only query path that the history commands (query, export) read the rows not yet in
// history through: the SQLite file, or PostgreSQL (its driver loaded only then), warning once when the
// role may do more than read.
import type { ReaderConfig } from '../config/reader-config.js';
import type { QueryStore } from '../store/store.js';

export async function historyStoreRows(
  config: ReaderConfig,
  server: string | null,
  warn: (text: string) => void,
  applicationName: string,
): Promise<QueryStore> {
  if (server === null) {
    const { sqliteRowReader } = await import('../history/sqlite-row-reader.js');
    return sqliteRowReader(config.database.path);
  }
  const [{ postgresQueries, serverOptions }, { readerRoleWarning }] = await Promise.all([
    import('../store/postgres/postgres-store.js'),
    import('../store/postgres/reader-role.js'),
  ]);
  let warned = false;
  return postgresQueries(
    { ...serverOptions({ url: server, ssl: config.database.ssl }), applicationName },
    {
      onRole: (role) => {
        const warning = readerRoleWarning(role);
        if (warning && !warned) warn(`edgelog: warning: ${warning}\n`);
        warned = true;
      },
    },
  );
}
