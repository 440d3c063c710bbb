// Where the Parquet history lives: history.path, or "history" beside the SQLite archive file when the
// configuration leaves it out (so the default archive data/edgelog.db keeps its history in data/history).
import { dirname, join } from 'node:path';

/** The history directory, or null when history.path is null (no history kept). */
export function historyPath(config: {
  history: { path?: string | null };
  database: { path: string };
}): string | null {
  const { path } = config.history;
  if (path === null) return null;
  return path ?? join(dirname(config.database.path), 'history');
}
