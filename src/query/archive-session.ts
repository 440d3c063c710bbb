// The one query entry point of the readers (`edgelog query`, `export`, the demo, the console): the
// archive's dialect (DuckDB, docs/SQL.md) over every day the archive holds, whatever has been flushed,
// merged or pruned (history/archive-queries.ts). DuckDB and the store's reader are loaded here, only by
// the commands that query.
import { historyPath } from '../config/history-path.js';
import type { ReaderConfig } from '../config/reader-config.js';
import type { ArchiveQueryStore } from '../history/archive-queries.js';
import type { OpenDuckDb } from '../history/duckdb.js';
import type { ArchiveReader } from '../store/store.js';

export interface ArchiveSessionOptions {
  /** Shown in PostgreSQL's pg_stat_activity. */
  applicationName: string;
  /** Told, in one line, when the reader's role may do more than read. */
  roleWarning?: (warning: string) => void;
  /** @defaultValue openDuckDb, loaded on first use */
  openDuckDb?: OpenDuckDb;
}

export interface ArchiveSession {
  /** Statements in the archive's dialect (and their rows as Parquet). */
  queries: ArchiveQueryStore;
  /** The store's own reader (its native SQL: `edgelog query --engine store`). */
  reader: ArchiveReader;
  /** The history directory read, or null when the configuration keeps none. */
  historyRoot: string | null;
  close(): Promise<void>;
}

/** Opens DuckDB, loading it only then (history/duckdb.ts). */
export const loadAndOpenDuckDb: OpenDuckDb = async (opts) =>
  (await import('../history/duckdb.js')).openDuckDb(opts);

/** Opens the archive for queries in its dialect. */
export async function openArchiveSession(
  config: ReaderConfig,
  opts: ArchiveSessionOptions,
): Promise<ArchiveSession> {
  const [{ archiveQueries }, { openReader }] = await Promise.all([
    import('../history/archive-queries.js'),
    import('../store/open-reader.js'),
  ]);
  const reader = await openReader(config.database, {
    applicationName: opts.applicationName,
    ...(opts.roleWarning ? { roleWarning: opts.roleWarning } : {}),
  });
  const root = historyPath(config);
  return {
    queries: archiveQueries({ root, store: reader.queries, open: opts.openDuckDb ?? loadAndOpenDuckDb }),
    reader,
    historyRoot: root,
    close: () => reader.close(),
  };
}
