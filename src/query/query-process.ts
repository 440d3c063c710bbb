// `edgelog query` with a time bound: the statement runs in a child process, killed at the deadline.
//
// Why a process: better-sqlite3 is synchronous and exposes neither sqlite3_interrupt() nor SQLite's
// progress handler, so nothing can stop a statement in the thread that runs it: no timer fires while
// sqlite3_step() computes. Checking the clock between rows would bound an endless result but not a step
// that computes for minutes before its first row (a count(*) over a cross join). Measured here (Node 20,
// a 15-second step on a worker thread): worker.terminate() at 1 s took effect only when the step returned
// at 15 s, and process.exit() waited for it too. A child process killed with SIGKILL stops at once; the
// price is starting one per query: `edgelog query "select 1"` went from 0.82-0.92 s to 0.99-1.01 s
// (20 runs each, this busy 2-core machine), about 0.15 s more CPU.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EdgelogError } from '../errors/index.js';
import { fromTransferable, type TransferredError } from '../errors/transfer.js';
import type { Output } from './output.js';
import { QueryError } from './query-error.js';
import type { QueryReply, QueryRequest } from './query-protocol.js';
import { QueryTimeoutError } from './query-timeout-error.js';
import type { QueryResult } from './run-query.js';
import { SnapshotChangedError } from './snapshot-changed-error.js';
import { workDeadline } from './work-deadline.js';

/** How long a query may run unless told otherwise: 30 s. */
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

export interface QueryProcessOptions {
  /**
   * Time the query may work, in milliseconds; 0 for no bound. Time spent waiting for the reader of the
   * output (`| less`) does not count, opening the archive does. @defaultValue DEFAULT_QUERY_TIMEOUT_MS
   */
  timeoutMs?: number;
}

/** The child's entry and the flags to run it: from dist/ plain JS; from src/ (tests) through tsx. */
function childEntry(): { path: string; execArgv: string[] } {
  const here = import.meta.url;
  // The heap bounds bin/edgelog.js gave this process hold for the child too.
  const heap = process.execArgv.filter((a) => a.startsWith('--max-old-space-size'));
  if (!here.endsWith('.ts'))
    return { path: fileURLToPath(new URL('./query-child.js', here)), execArgv: heap };
  const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { path: fileURLToPath(new URL('./query-child.ts', here)), execArgv: [...heap, '--import', tsx] };
}

/** The errors of this folder come back as themselves, so the CLI prints their message alone. */
const QUERY_ERRORS: Record<string, { prototype: Error }> = {
  QueryError,
  QueryTimeoutError,
  SnapshotChangedError,
};

function revive(t: TransferredError): Error {
  const err = fromTransferable(t);
  const cls = QUERY_ERRORS[t.name];
  if (cls) Object.setPrototypeOf(err, cls.prototype);
  return err;
}

/** The child's end: its reply (undefined when it died without one) and how it exited. */
function childDone(child: ChildProcess) {
  const replied = new Promise<Exclude<QueryReply, { type: 'ready' }> | undefined>((resolve) => {
    child.on('message', (m: QueryReply) => m.type !== 'ready' && resolve(m));
    child.on('disconnect', () => resolve(undefined));
    child.on('error', () => resolve(undefined));
  });
  const exited = new Promise<string>((resolve) => {
    child.on('close', (code, signal) => resolve(signal ?? `exit code ${code}`));
    // It could not be started (or signalled): 'close' may never come.
    child.on('error', (err) => resolve(err.message));
  });
  return Promise.all([replied, exited]);
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Ctrl-C reaches the child too (it is in the same process group), but a signal sent to this process
 * alone (`timeout 60 edgelog query …`) or its exit (`| head` closed) must stop it as well: a statement
 * inside its step notices nothing. The signal is then raised again, for its default action.
 */
function stopWithParent(child: ChildProcess): () => void {
  const stop = () => child.kill('SIGKILL');
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    release();
    process.kill(process.pid, signal);
  };
  const release = () => {
    process.off('exit', stop);
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  process.once('exit', stop);
  for (const s of SIGNALS) process.once(s, onSignal);
  return release;
}

/**
 * Runs `request` in a child process and writes its output to `out`. Throws QueryTimeoutError when the
 * deadline passes first (output already written stays written), the query's own errors as they were
 * thrown in the child, OutputClosedError when `out` closes (the child is stopped).
 */
export async function runQueryProcess(
  request: QueryRequest,
  out: Output,
  opts: QueryProcessOptions = {},
): Promise<QueryResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const { path, execArgv } = childEntry();
  const child = fork(path, [], {
    execArgv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  const release = stopWithParent(child);
  const done = childDone(child).finally(release);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  let timedOut = false;
  let deadline = workDeadline(0, () => {});
  // The clock starts once the child has loaded: starting Node is not the query's time.
  child.on('message', (m: QueryReply) => {
    if (m.type !== 'ready') return;
    deadline = workDeadline(timeoutMs, () => {
      timedOut = true;
      child.kill('SIGKILL');
    });
    child.send(request);
  });
  let written = false;
  try {
    for await (const text of child.stdout!.setEncoding('utf8')) {
      deadline.pause();
      await out.write(text as string);
      written = true;
      deadline.resume();
    }
  } catch (err) {
    child.kill('SIGKILL');
    await done;
    throw err;
  } finally {
    deadline.stop();
  }
  const [reply, exit] = await done;
  if (timedOut) throw new QueryTimeoutError(timeoutMs, written);
  if (reply?.type === 'done') return reply.result;
  if (reply?.type === 'error') throw revive(reply.error);
  // Node's own last words (an uncaught error, "FATAL ERROR: … heap out of memory") come before its stack.
  const why = stderr
    .split('\n')
    .find((line) => /error/i.test(line))
    ?.trim();
  const hint = /heap out of memory/.test(stderr)
    ? ' (a table holds its rows in memory: lower --limit, or use --format csv|ndjson|json)'
    : '';
  throw new EdgelogError(`the query process stopped unexpectedly (${exit})${why ? `: ${why}` : ''}${hint}`);
}
