// `edgelog query "<SQL>"`: one read-only statement against the archive, as a table, JSON, NDJSON or CSV.
import { Command, Option } from 'commander';
import { OutputClosedError, streamOutput, type Stdout } from '../format/output.js';
import { DEFAULT_QUERY_TIMEOUT_MS, runBoundedQuery } from '../query/run-bounded.js';
import { DEFAULT_TABLE_LIMIT, QUERY_FORMATS, type QueryFormat } from '../query/run-query.js';
import { durationArg, intArg, jsonOption, outputFormat } from './args.js';
import { readerServer, type ReaderConfig } from '../config/reader-config.js';
import { readerConfig } from './reader-context.js';
import type { OpenDuckDb } from '../history/duckdb.js';
import { loadAndOpenDuckDb } from '../query/archive-session.js';

/**
 * Where `query` runs a statement: the archive in its one dialect (DuckDB over the history's parts and the
 * store's newer rows, and the store's small tables), or the store alone in its own SQL.
 */
export type QueryEngine = 'archive' | 'store';
export const QUERY_ENGINES: readonly QueryEngine[] = ['archive', 'store'];

interface QueryCliOptions {
  format: QueryFormat;
  json?: boolean;
  limit?: number;
  timeout?: number;
  csvRaw?: boolean;
  wide?: boolean;
  engine?: QueryEngine;
}

/** A duration, or a bare 0 for no bound. */
function timeoutArg(value: string): number {
  return value.trim() === '0' ? 0 : durationArg(value);
}

/** Where `query` says, in one line, that its role may do more than read. @defaultValue stderr */
export type WarningLine = (text: string) => void;

export function queryCommand(
  stdout: Stdout = process.stdout,
  warn: WarningLine = (text) => void process.stderr.write(text),
  openDuckDb: OpenDuckDb = loadAndOpenDuckDb,
): Command {
  return new Command('query')
    .description('run one read-only SQL statement against the archive (tables and views: docs/SQL.md)')
    .argument('<sql>', 'the statement, e.g. "SELECT count(*) FROM origin_error_logs"')
    .addOption(
      new Option('--format <format>', 'table, json (an array), ndjson (one object a line) or csv')
        .choices(QUERY_FORMATS)
        .default('table'),
    )
    .addOption(jsonOption())
    .option(
      '--limit <n>',
      `rows at most, 0 for all (default: ${DEFAULT_TABLE_LIMIT} for table, which says when there are more; all for the others)`,
      intArg,
    )
    .option(
      '--timeout <duration>',
      `stop the query after this long, e.g. 90s or 10m; 0 for no bound (default: ${DEFAULT_QUERY_TIMEOUT_MS / 1000}s)`,
      timeoutArg,
    )
    .option(
      '--csv-raw',
      "csv: every cell exactly as stored (by default a cell starting with = + - @ tab or CR gets a leading ' so spreadsheets do not run it)",
    )
    .option('--wide', 'table: every cell whole (by default the table fits the terminal, long cells cut)')
    .addOption(
      new Option(
        '--engine <engine>',
        "archive: every table and day of the archive in its one SQL dialect (DuckDB's: docs/SQL.md); store: the archive database alone, in its own SQL (days pruned into the history are not there)",
      )
        .choices(QUERY_ENGINES)
        .default('archive'),
    )
    .action(async (sql: string, opts: QueryCliOptions, cmd: Command) => {
      const config = readerConfig(cmd);
      const { limit, timeout } = opts;
      const format = outputFormat(opts) as QueryFormat;
      const timeoutMs = timeout ?? DEFAULT_QUERY_TIMEOUT_MS;
      const terminal = stdout.isTTY === true;
      const request = {
        path: config.database.path,
        sql,
        format,
        ...(limit === undefined ? {} : { limit }),
        table: { wide: opts.wide, width: terminal ? stdout.columns : undefined },
        encoding: { csvRaw: opts.csvRaw === true, terminal },
      };
      const roleWarning = (warning: string) => warn(`edgelog: warning: ${warning}\n`);
      try {
        if (opts.engine !== 'store') {
          const [{ openArchiveSession }, { runStoreQuery }] = await Promise.all([
            import('../query/archive-session.js'),
            import('../query/run-store-query.js'),
          ]);
          const session = await openArchiveSession(config, {
            applicationName: 'edgelog query',
            roleWarning,
            openDuckDb,
          });
          try {
            await runStoreQuery(session.queries, sql, { ...request, timeoutMs }, streamOutput(stdout));
          } finally {
            await session.close();
          }
          return;
        }
        await warnPruned(config, warn);
        if (readerServer(config.database) !== null) {
          // PostgreSQL, loaded only here: a SQLite query does not pay for pg at start-up.
          const [{ openReader }, { runStoreQuery }, { untilSignal }] = await Promise.all([
            import('../store/open-reader.js'),
            import('../query/run-store-query.js'),
            import('./signals.js'),
          ]);
          const reader = await openReader(config.database, { applicationName: 'edgelog query', roleWarning });
          const { queries } = reader;
          // SIGINT or SIGTERM: the statement is cancelled on the server before the process ends, as the
          // signal would have ended it (a process that just exits leaves the server running it).
          const stop = untilSignal();
          const abort = new AbortController();
          let signal: NodeJS.Signals | undefined;
          void stop.promise.then((s) => {
            signal = s;
            abort.abort();
          });
          try {
            const opts = { ...request, timeoutMs, signal: abort.signal };
            await runStoreQuery(queries, sql, opts, streamOutput(stdout));
          } finally {
            stop.dispose();
            await reader.close();
            if (signal !== undefined) process.kill(process.pid, signal);
          }
          return;
        }
        await runBoundedQuery(request, streamOutput(stdout), { timeoutMs });
      } catch (err) {
        // The reader closed the pipe (`| head`): what it wanted was written.
        if (!(err instanceof OutputClosedError)) throw err;
      }
    });
}

/** `--engine store` does not see the days pruned into the history: says which, when there are any. */
async function warnPruned(config: ReaderConfig, warn: WarningLine): Promise<void> {
  const [{ openReader }, { prunedSpan }] = await Promise.all([
    import('../store/open-reader.js'),
    import('../history/pruned-span.js'),
  ]);
  const reader = await openReader(config.database, { applicationName: 'edgelog query' });
  try {
    // An archive from before the history (no history_days) has no pruned day to tell of.
    const span = await prunedSpan(reader.queries).catch(() => null);
    if (span !== null)
      warn(
        `edgelog: note: --engine store reads the store alone: ${span.days} day(s) from ${span.from} to ${span.to} ` +
          'were pruned into the history and are not in it (the default engine reads them)\n',
      );
  } finally {
    await reader.close();
  }
}
