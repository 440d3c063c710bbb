// Where the Parquet history lives: history.path, or "history" beside the SQLite archive file when the
// configuration leaves it out (so the default archive data/edgelog.db keeps its history in data/history).
import { dirname, join } from 'node:path';
import type { Config } from './schema.js';

/** The history directory, or null when history.path is null (no history kept). */
export function historyPath(config: Pick<Config, 'history' | 'database'>): string | null {
  const { path } = config.history;
  if (path === null) return null;
  return path ?? join(dirname(config.database.path), 'history');
}
