// `edgelog query "<SQL>"`: one read-only statement against the archive, as a table, JSON, NDJSON or CSV.
import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { OutputClosedError, streamOutput, type Stdout } from '../format/output.js';
import { DEFAULT_QUERY_TIMEOUT_MS, runBoundedQuery } from '../query/run-bounded.js';
import { DEFAULT_TABLE_LIMIT, QUERY_FORMATS, type QueryFormat } from '../query/run-query.js';
import { durationArg, intArg, jsonOption, outputFormat } from './args.js';
import { historyPath } from '../config/history-path.js';
import { readerServer } from '../config/reader-config.js';
import { UsageError } from '../errors/usage-error.js';
import { readerConfig } from './reader-context.js';
import type { OpenDuckDb } from '../history/duckdb.js';
import type { DuckDBConnection } from '@duckdb/node-api';

/** Where `query` runs a statement: DuckDB over the history and the newer rows, or the store's engine. */
export type QueryEngine = 'history' | 'store';
export const QUERY_ENGINES: readonly QueryEngine[] = ['history', 'store'];

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

/** Opens DuckDB for the history engine, loading it only then (src/history/duckdb.ts). */
const loadAndOpenDuckDb: OpenDuckDb = async (opts) => (await import('../history/duckdb.js')).openDuckDb(opts);

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
        'history: DuckDB over the Parquet history and the rows not yet in it (entry tables and quarantine; DuckDB SQL); store: the archive database alone (every table, its own SQL) (default: history for a SELECT over entry tables the history holds files of, else store)',
      ).choices(QUERY_ENGINES),
    )
    .action(async (sql: string, opts: QueryCliOptions, cmd: Command) => {
      const config = readerConfig(cmd);
      const history = historyPath(config);
      // Not told: DuckDB only for a SELECT over entries the history holds files of (engine-choice.ts);
      // the DuckDB that chose the history then runs the statement.
      const choice: { engine: QueryEngine; conn?: DuckDBConnection } =
        opts.engine !== undefined
          ? { engine: opts.engine }
          : history === null || !existsSync(history)
            ? { engine: 'store' }
            : await import('../history/engine-choice.js').then((m) =>
                m.chooseEngine(sql, history, { open: openDuckDb }),
              );
      const engine = choice.engine;
      if (engine === 'history' && history === null)
        throw new UsageError(
          '--engine history: history.path is null in the configuration (no history is kept)',
        );
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
      const server = readerServer(config.database);
      try {
        if (engine === 'history' && history !== null) {
          // DuckDB and the history's engine, loaded only here (see src/history/duckdb.ts); the rows not
          // yet in history are read through the store's own read-only query port.
          const [{ historyQueries }, { runStoreQuery }, { openReader }] = await Promise.all([
            import('../history/history-queries.js'),
            import('../query/run-store-query.js'),
            import('../store/open-reader.js'),
          ]);
          const reader = await openReader(config.database, {
            applicationName: 'edgelog query',
            roleWarning: (warning) => warn(`edgelog: warning: ${warning}\n`),
          });
          try {
            const queries = historyQueries({
              root: history,
              store: reader.queries,
              open: openDuckDb,
              ...(choice.conn === undefined ? {} : { connection: choice.conn }),
            });
            await runStoreQuery(queries, sql, { ...request, timeoutMs }, streamOutput(stdout));
          } finally {
            await reader.close();
          }
          return;
        }
        if (server !== null) {
          // PostgreSQL, loaded only here: a SQLite query does not pay for pg at start-up.
          const [{ openReader }, { runStoreQuery }, { untilSignal }] = await Promise.all([
            import('../store/open-reader.js'),
            import('../query/run-store-query.js'),
            import('./signals.js'),
          ]);
          const reader = await openReader(config.database, {
            applicationName: 'edgelog query',
            roleWarning: (warning) => warn(`edgelog: warning: ${warning}\n`),
          });
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
      } finally {
        // Closed by the statement already unless something failed before it ran (closing twice is a no-op).
        choice.conn?.closeSync();
      }
    });
}
