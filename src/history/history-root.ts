// The history directory a command or job writes: history.path resolved, made if missing, and checked
// writable at once, so that a wrong setting fails with its name and the fix instead of deep in a COPY.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { HistoryError, UsageError } from '../errors/index.js';
import { historyPath } from '../config/history-path.js';
import type { Config } from '../config/index.js';
import { DATA_DIR_MODE } from '../file-modes.js';

/** The history root, or a UsageError when history.path is null (no history is kept). */
export function historyRoot(config: Pick<Config, 'history' | 'database'>): string {
  const root = historyPath(config);
  if (root === null) {
    throw new UsageError(
      'history is off (history.path is null): set history.path to a directory (e.g. "data/history") to keep one',
    );
  }
  try {
    mkdirSync(root, { recursive: true, mode: DATA_DIR_MODE });
    accessSync(root, constants.W_OK);
  } catch (cause) {
    throw new HistoryError(
      `the history directory ${root} (history.path) cannot be written: ${(cause as Error).message}; ` +
        'make it writable, or set history.path to a directory that is',
      { cause },
    );
  }
  return root;
}
