// The last resort of `edgelog query --timeout`: a thread that stops the whole process when the main
// thread is stuck inside one SQLite step past the deadline.
//
// better-sqlite3 is synchronous and exposes neither sqlite3_interrupt() nor SQLite's progress handler
// (its SQLite is built with SQLITE_OMIT_PROGRESS_CALLBACK): while sqlite3_step() computes (a count(*)
// over a cross join yields no row for minutes), no timer of the main thread fires and no check between
// rows runs. A worker thread runs beside it, keeps the same working-time clock (paused while the output
// waits for its reader), and when the deadline plus a grace has passed it writes the message to stderr
// and interrupts the process (SIGINT; SIGKILL a second later if that did not end it). In the common case
// — rows keep coming — the main thread's own check between rows stops first, with a clean error and
// exit code 1.
//
// Why not exit code 1 here too: nothing but the main thread can end the process with one. A worker's
// process.exit() ends only the worker, and a main thread's process.exit() waits for every worker to
// stop, which one stuck in sqlite3_step() never does (so running the statement in a worker does not
// help either). A child process running the query would, but starting one costs more than the query
// itself on a small archive (docs/OPERATIONS.md, Start-up). SIGINT ends it as Ctrl-C does: exit status 130, and a
// shell prints nothing after the message (SIGKILL made it print "Killed", exit status 137).
import { Worker } from 'node:worker_threads';

export interface Watchdog {
  /** The output waits for its reader: that time does not count. */
  pause(): void;
  resume(): void;
  /** Part of the result was written (the message then says the output is incomplete). */
  written(): void;
  stop(): Promise<void>;
}

export interface WatchdogOptions {
  /** Working time allowed, ms. */
  timeoutMs: number;
  /** After the deadline, how long the main thread has to stop by itself. @defaultValue 500 ms */
  graceMs?: number;
  /** The line written before the kill, for a result with (true) or without (false) output so far. */
  message: (partial: boolean) => string;
}

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
let left = workerData.ms;
let since = Date.now();
let paused = false;
let partial = false;
let timer;
const fire = () => {
  try { writeSync(2, partial ? workerData.partial : workerData.whole); } catch {}
  // Ends the process as Ctrl-C does (Node's own handler, not JS: the main thread is stuck); SIGKILL if a
  // SIGINT listener (which would wait for the stuck thread) kept it alive.
  process.kill(workerData.pid, 'SIGINT');
  setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), 1000);
};
const arm = () => { since = Date.now(); timer = setTimeout(fire, left); };
parentPort.on('message', (m) => {
  if (m === 'pause' && !paused) { paused = true; clearTimeout(timer); left = Math.max(0, left - (Date.now() - since)); }
  else if (m === 'resume' && paused) { paused = false; arm(); }
  else if (m === 'written') partial = true;
  else if (m === 'stop') { clearTimeout(timer); parentPort.close(); }
});
arm();
`;

export function startWatchdog(opts: WatchdogOptions): Watchdog {
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: {
      ms: opts.timeoutMs + (opts.graceMs ?? 500),
      pid: process.pid,
      whole: `edgelog: ${opts.message(false)}\n`,
      partial: `edgelog: ${opts.message(true)}\n`,
    },
    // A few MB are plenty for a timer.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  worker.unref();
  let stopped = false;
  return {
    pause: () => worker.postMessage('pause'),
    resume: () => worker.postMessage('resume'),
    written: () => worker.postMessage('written'),
    async stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
      await worker.terminate();
    },
  };
}
