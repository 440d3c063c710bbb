// `edgelog query "<SQL>"`: one read-only statement against the archive, as a table, JSON, NDJSON or CSV;
// without one, a prompt on a terminal (query/prompt.ts) or the statement read from stdin; `--schema`
// lists the tables and views with their columns.
import type { Readable } from 'node:stream';
import { Command, Option } from 'commander';
import { OutputClosedError, streamOutput, type Stdout } from '../format/output.js';
import { DEFAULT_QUERY_TIMEOUT_MS, runBoundedQuery, type QueryRequest } from '../query/run-bounded.js';
import { DEFAULT_TABLE_LIMIT, QUERY_FORMATS, type QueryFormat } from '../query/run-query.js';
import { durationArg, intArg, jsonOption, outputFormat } from './args.js';
import { readerServer, type ReaderConfig } from '../config/reader-config.js';
import { readerConfig } from './reader-context.js';
import type { OpenDuckDb } from '../history/duckdb.js';
import { loadAndOpenDuckDb } from '../query/archive-session.js';
import { UsageError } from '../errors/usage-error.js';
import { displayUrl } from '../redact.js';
import { PRUNED_SPAN_SQL, prunedSpanOf, type PrunedSpan } from '../history/pruned-span.js';

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
  schema?: boolean;
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
  stdin: Readable & { isTTY?: boolean } = process.stdin,
): Command {
  return new Command('query')
    .description(
      'run a read-only SQL statement against the archive, or a prompt on a terminal (tables: --schema, docs/SQL.md)',
    )
    .argument(
      '[sql]',
      'the statement, e.g. "SELECT count(*) FROM origin_error_logs"; none: a prompt on a terminal, else read from stdin',
    )
    .option(
      '--schema',
      "print the archive's tables and views with their columns and types (with a name: that one alone)",
    )
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
    .action(async (given: string | undefined, opts: QueryCliOptions, cmd: Command) => {
      const format = outputFormat(opts) as QueryFormat;
      if (opts.schema) {
        await printSchema(given, format, stdout, openDuckDb);
        return;
      }
      const config = readerConfig(cmd);
      const { limit, timeout } = opts;
      const timeoutMs = timeout ?? DEFAULT_QUERY_TIMEOUT_MS;
      const terminal = stdout.isTTY === true;
      const prompt = given === undefined && terminal && stdin.isTTY === true;
      const sql = given ?? (prompt ? '' : await readAll(stdin));
      if (!prompt && given === undefined && sql.trim() === '')
        throw new UsageError(
          'no statement: give one (edgelog query "SELECT …"), pipe one on stdin, or run it on a terminal for a prompt; --schema lists the tables',
        );
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
          const run = async (statement: string, signal?: AbortSignal) => {
            // The terminal's width as it is now: the prompt's window may have been resized.
            const table = { ...request.table, width: terminal ? stdout.columns : undefined };
            const bounds = { ...request, table, timeoutMs, signal };
            await runStoreQuery(session.queries, statement, bounds, streamOutput(stdout));
          };
          try {
            if (prompt) await openPrompt(config, stdin, stdout, openDuckDb, run);
            else await run(sql);
          } finally {
            await session.close();
          }
          return;
        }
        // SQLite's statement reads its own connection: the note comes from it (no second open of the
        // store's reader, whose modules cost the command's start-up a tenth of it).
        const sqlite = readerServer(config.database) === null;
        if (prompt || !sqlite) await warnPruned(config, warn);
        if (prompt) {
          await openStorePrompt(config, request, { stdin, stdout, timeoutMs, roleWarning });
          return;
        }
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
        await runBoundedQuery(request, streamOutput(stdout), {
          timeoutMs,
          beforeQuery: (db) => {
            // An archive from before the history (no history_days) has no pruned day to tell of.
            let row: unknown[] | undefined;
            try {
              row = db.prepare(PRUNED_SPAN_SQL).raw(true).get() as unknown[] | undefined;
            } catch {
              row = undefined;
            }
            const span = prunedSpanOf(row);
            if (span !== null) warn(prunedNote(span));
          },
        });
      } catch (err) {
        // The reader closed the pipe (`| head`): what it wanted was written.
        if (!(err instanceof OutputClosedError)) throw err;
      }
    });
}

/** What `--engine store` says of the days pruned into the history, which it does not see. */
const prunedNote = (span: PrunedSpan): string =>
  `edgelog: note: --engine store reads the store alone: ${span.days} day(s) from ${span.from} to ${span.to} ` +
  'were pruned into the history and are not in it (the default engine reads them)\n';

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
    if (span !== null) warn(prunedNote(span));
  } finally {
    await reader.close();
  }
}

/** The whole of `stream` as text: the statement of `echo "SELECT …" | edgelog query`. */
async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** `--schema [name]`: the tables and views (or one), as text or in the chosen format; reads no archive. */
async function printSchema(
  name: string | undefined,
  format: QueryFormat,
  stdout: Stdout,
  openDuckDb: OpenDuckDb,
): Promise<void> {
  const [{ readArchiveSchema }, text, { ENCODERS }] = await Promise.all([
    import('../history/archive-schema.js'),
    import('../query/schema-text.js'),
    import('../format/row-encoders.js'),
  ]);
  const all = await readArchiveSchema(openDuckDb);
  const relations = name === undefined ? all : [text.findRelation(all, name)];
  const out = streamOutput(stdout);
  if (format === 'table') {
    await out.write(
      name === undefined ? text.schemaText(relations) : `${text.relationText(relations[0]!)}\n`,
    );
    return;
  }
  const encoder = ENCODERS[format](text.SCHEMA_COLUMNS, { terminal: stdout.isTTY === true });
  const rows = text.schemaRows(relations);
  await out.write(
    encoder.start() + rows.map((r, i) => encoder.row(r, i)).join('') + encoder.end(rows.length),
  );
}

/** The prompt over the archive's session: its statements go to `run`. */
async function openPrompt(
  config: ReaderConfig,
  stdin: Readable,
  stdout: Stdout,
  openDuckDb: OpenDuckDb,
  run: (sql: string, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const [{ readArchiveSchema }, { runPrompt }, { failureText }] = await Promise.all([
    import('../history/archive-schema.js'),
    import('../query/prompt.js'),
    import('../format/failure-text.js'),
  ]);
  const server = readerServer(config.database);
  const archive = server === null ? config.database.path : displayUrl(server);
  await runPrompt({
    input: stdin,
    output: stdout,
    relations: await readArchiveSchema(openDuckDb),
    banner: `edgelog query: ${archive}, in DuckDB's SQL (docs/SQL.md)`,
    dialect: "DuckDB's SQL: docs/SQL.md",
    run,
    describeFailure: failureText,
    historyFile: promptHistoryFile(),
  });
}

/**
 * `--engine store`'s prompt: the same prompt over the store alone, in its own SQL (SQLite's or
 * PostgreSQL's), listing and completing the store's own tables. A SQLite statement runs bounded as one
 * given on the command line (its step holds the process: Ctrl-C takes effect when it ends or at the
 * bound); a PostgreSQL one is cancelled on the server by Ctrl-C.
 */
async function openStorePrompt(
  config: ReaderConfig,
  request: QueryRequest,
  io: {
    stdin: Readable;
    stdout: Stdout;
    timeoutMs: number;
    roleWarning: (warning: string) => void;
  },
): Promise<void> {
  const [{ openReader }, { runStoreQuery }, { readStoreSchema }, { runPrompt }, { failureText }] =
    await Promise.all([
      import('../store/open-reader.js'),
      import('../query/run-store-query.js'),
      import('../query/store-schema.js'),
      import('../query/prompt.js'),
      import('../format/failure-text.js'),
    ]);
  const { stdout, timeoutMs } = io;
  const server = readerServer(config.database);
  const where = server === null ? config.database.path : displayUrl(server);
  const dialect = server === null ? "SQLite's SQL" : "PostgreSQL's SQL";
  const reader = await openReader(config.database, {
    applicationName: 'edgelog query',
    roleWarning: io.roleWarning,
  });
  try {
    const run = async (sql: string, signal: AbortSignal) => {
      // The terminal's width as it is now: the prompt's window may have been resized.
      const table = { ...request.table, width: stdout.columns };
      if (server === null)
        await runBoundedQuery({ ...request, table, sql }, streamOutput(stdout), { timeoutMs });
      else
        await runStoreQuery(
          reader.queries,
          sql,
          { ...request, table, timeoutMs, signal },
          streamOutput(stdout),
        );
    };
    await runPrompt({
      input: io.stdin,
      output: stdout,
      relations: await readStoreSchema(reader.queries, timeoutMs),
      banner: `edgelog query --engine store: ${where}, in ${dialect} (the store alone: days pruned into the history are not in it)`,
      dialect: `${dialect}: --engine store`,
      run,
      describeFailure: failureText,
      historyFile: promptHistoryFile(),
    });
  } finally {
    await reader.close();
  }
}

/** `$EDGELOG_QUERY_HISTORY`, else `~/.edgelog_query_history`; none without a home directory. */
function promptHistoryFile(): string | null {
  const set = process.env.EDGELOG_QUERY_HISTORY;
  if (set !== undefined) return set === '' ? null : set;
  const home = process.env.HOME;
  return home ? `${home}/.edgelog_query_history` : null;
}
