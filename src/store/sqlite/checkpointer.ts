// Background WAL checkpoints. By default SQLite checkpoints inside the committing writer: every ~4 MB the
// ingest thread stops to copy the WAL into the database and fsync both. Here a worker thread with its
// own connection runs PASSIVE checkpoints instead (they never block the writer or readers), so the
// ingest thread only appends to the WAL. Measured on this project's benchmark: see docs/PERFORMANCE.md.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.js';
import type { Db } from './database.js';

export interface CheckpointerOptions {
  /** Time between checkpoints. @defaultValue 250 ms */
  intervalMs?: number;
}

// Plain CommonJS run with `eval`, so it works the same from src/ (tests) and dist/. Only PASSIVE
// checkpoints: the stronger modes take the write lock for the whole copy and would stall the writer.
// After a complete checkpoint the writer starts the WAL over from its beginning, so it stays bounded.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
let timer;
let failing = null; // the message of the failure in progress: reported once, and its end once
const tick = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    if (failing !== null) parentPort.postMessage({ recovered: failing });
    failing = null;
  } catch (err) {
    const message = String(err && err.message || err);
    if (message !== failing) parentPort.postMessage({ error: message });
    failing = message;
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
parentPort.on('message', () => { clearTimeout(timer); tick(); clearTimeout(timer); db.close(); parentPort.postMessage({ closed: true }); });
tick();
`;

export interface Checkpointer {
  /** Runs a last checkpoint and stops the thread. */
  stop(): Promise<void>;
}

/**
 * Turns off the writer's own checkpoints and starts the background thread. If the thread cannot start,
 * the writer keeps SQLite's default automatic checkpoints.
 */
export function startCheckpointer(db: Db, logger?: Logger, opts: CheckpointerOptions = {}): Checkpointer {
  if (db.memory || db.readonly) return { stop: async () => {} };
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path: db.name, driver, intervalMs: opts.intervalMs ?? 250 },
  });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  let closed = false;
  const restoreDefault = (why: string) => {
    if (!closed && db.open) db.pragma('wal_autocheckpoint = 1000');
    logger?.warn({ err: why }, 'background checkpoints stopped; SQLite checkpoints in the writer again');
  };
  worker.on('error', (err) => restoreDefault(err.message));
  // A failure (a full disk) is reported when it starts and when it ends, not at every tick.
  worker.on('message', (m: { error?: string; recovered?: string }) => {
    if (m.error) logger?.warn({ err: m.error }, 'background checkpoint failed; retrying');
    if (m.recovered) logger?.info({ was: m.recovered }, 'background checkpoints work again');
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        worker.once('exit', () => resolve());
        worker.on('message', (m: { closed?: boolean }) => {
          if (m.closed) void worker.terminate();
        });
        worker.postMessage('stop');
      }),
  };
}
