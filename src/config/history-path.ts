// Where the Parquet history lives: history.path, or "history" beside the SQLite archive file when the
// configuration leaves it out (so the default archive data/edgelog.db keeps its history in data/history).
// A PostgreSQL archive has no file to put it beside: its workers and readers, on any host, must name
// one directory they share, or each would keep (and read) a history of its own.
import { dirname, isAbsolute, join } from 'node:path';
import { ConfigError } from '../errors/config-error.js';

/** The history directory, or null when history.path is null (no history kept). */
export function historyPath(config: {
  history: { path?: string | null };
  database: { path: string; url?: string | null };
}): string | null {
  const { path } = config.history;
  if (path === null) return null;
  if (config.database.url) {
    if (path === undefined)
      throw new ConfigError(
        'history.path: an archive on PostgreSQL (database.url) keeps its history where every worker and ' +
          'reader finds it: set history.path to that directory, an absolute path (or null to keep no history)',
      );
    if (!isAbsolute(path))
      throw new ConfigError(
        `history.path: "${path}" is relative: with database.url (PostgreSQL) give the absolute path of the ` +
          'directory every worker and reader shares',
      );
  }
  return path ?? join(dirname(config.database.path), 'history');
}
