// `edgelog query "<SQL>"`: one read-only statement against the archive, as a table, JSON, NDJSON or CSV.
import { Command, Option } from 'commander';
import { OutputClosedError, streamOutput, type Stdout } from '../query/output.js';
import { openReadOnlyConnection, verifiedRead } from '../query/read-only.js';
import { DEFAULT_TABLE_LIMIT, QUERY_FORMATS, runQuery, type QueryFormat } from '../query/run-query.js';
import { commandContext, intArg } from './shared.js';

export function queryCommand(stdout: Stdout = process.stdout): Command {
  return new Command('query')
    .description('run one read-only SQL statement against the archive (tables and views: docs/SQL.md)')
    .argument('<sql>', 'the statement, e.g. "SELECT count(*) FROM origin_error_logs"')
    .addOption(
      new Option('--format <format>', 'table, json (an array), ndjson (one object a line) or csv')
        .choices(QUERY_FORMATS)
        .default('table'),
    )
    .option(
      '--limit <n>',
      `rows at most, 0 for all (default: ${DEFAULT_TABLE_LIMIT} for table, which counts the rest; all for the others)`,
      intArg,
    )
    .action(async (sql: string, opts: { format: QueryFormat; limit?: number }, cmd: Command) => {
      const { config } = commandContext(cmd);
      const conn = openReadOnlyConnection(config.database.path);
      try {
        await verifiedRead(conn, streamOutput(stdout), (db, out) => runQuery(db, sql, opts, out));
      } catch (err) {
        // The reader closed the pipe (`| head`): what it wanted was written.
        if (!(err instanceof OutputClosedError)) throw err;
      } finally {
        conn.db.close();
      }
    });
}
