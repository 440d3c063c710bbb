// `edgelog export`: one table's entries of a range of UTC days, from the history and the rows not yet in
// it (each entry once, as `edgelog query` reads them), as Parquet, NDJSON or CSV, to a file or stdout;
// streamed, so there is no row cap and memory stays flat.
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { historyPath } from '../config/history-path.js';
import { UsageError } from '../errors/usage-error.js';
import { thousands } from '../format/table.js';
import type { HistoryTable } from '../history/layout.js';
import { OutputClosedError, streamOutput, type Stdout } from '../format/output.js';
import { dayOf, type Day } from '../time/utc-day.js';
import { dayArg, idListArg } from './args.js';
import { readerConfig } from './reader-context.js';
import { writeVia } from './write-via.js';

const EXPORT_FORMATS = ['parquet', 'ndjson', 'csv'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];
const SOURCES: Record<string, HistoryTable> = {
  origin: 'origin_error_logs',
  shield: 'shield_event_logs',
  quarantine: 'quarantined_entries',
};

interface ExportCliOptions {
  from: Day;
  to?: Day;
  source?: string;
  zone?: number[];
  format: ExportFormat;
  output: string;
  force?: boolean;
  csvRaw?: boolean;
}

export function exportCommand(
  stdout: Stdout = process.stdout,
  stderr: (text: string) => void = (text) => void process.stderr.write(text),
  now: () => number = Date.now,
): Command {
  return new Command('export')
    .description(
      "write one table's entries of a range of UTC days as Parquet, NDJSON or CSV (history and newer rows)",
    )
    .requiredOption('--from <day>', 'first UTC day (log_date), YYYY-MM-DD', dayArg)
    .option('--to <day>', 'last UTC day (log_date), YYYY-MM-DD (default: today, UTC)', dayArg)
    .addOption(
      new Option(
        '--source <source>',
        'the table: origin (origin_error_logs), shield (shield_event_logs) or quarantine',
      )
        .choices(Object.keys(SOURCES))
        .makeOptionMandatory(),
    )
    .option('--zone <id...>', 'only these zone ids (comma-separated or repeated)', idListArg)
    .addOption(
      new Option('--format <format>', 'parquet (zstd), ndjson or csv')
        .choices(EXPORT_FORMATS)
        .makeOptionMandatory(),
    )
    .option('--output <path>', 'the file to write, or - for stdout', '-')
    .option('--force', 'replace --output if it exists')
    .option(
      '--csv-raw',
      "csv: cells exactly as stored (by default a cell starting with = + - @ tab or CR gets a leading ')",
    )
    .action(async (opts: ExportCliOptions, cmd: Command) => {
      const to = opts.to ?? dayOf(now());
      if (opts.from > to) throw new UsageError(`--from ${opts.from} is after --to ${to}`);
      const table = SOURCES[opts.source!]!;
      const toStdout = opts.output === '-';
      if (toStdout && opts.format === 'parquet' && stdout.isTTY === true)
        throw new UsageError('--format parquet to a terminal: give --output <file> (or pipe stdout)');
      const file = toStdout ? null : resolve(opts.output);
      if (file !== null && existsSync(file) && !opts.force)
        throw new UsageError(`${opts.output} exists: choose another --output, or --force to replace it`);

      const config = readerConfig(cmd);
      const [{ exportRows }, { openReader }] = await Promise.all([
        import('../history/export-rows.js'),
        import('../store/open-reader.js'),
      ]);
      const reader = await openReader(config.database, {
        applicationName: 'edgelog export',
        roleWarning: (warning) => stderr(`edgelog: warning: ${warning}\n`),
      });
      const store = reader.queries;
      const request = {
        root: historyPath(config),
        store,
        table,
        scope: { from: opts.from, to, ...(opts.zone ? { zones: opts.zone } : {}) },
      };
      const encoding = { csvRaw: opts.csvRaw === true, terminal: toStdout && stdout.isTTY === true };
      let rows: number;
      try {
        if (opts.format === 'parquet') {
          rows = await writeVia(
            file,
            opts.force === true,
            async (temp) => exportRows(request, { format: 'parquet', file: temp }),
            stdout,
          );
        } else if (file === null) {
          rows = await exportRows(request, { format: opts.format, out: streamOutput(stdout), encoding });
        } else {
          rows = await writeVia(file, opts.force === true, async (temp) => {
            const stream = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
            const n = await exportRows(request, {
              format: opts.format as 'ndjson' | 'csv',
              out: streamOutput(stream),
              encoding,
            });
            stream.end();
            await once(stream, 'close');
            return n;
          });
        }
      } catch (err) {
        // The reader closed the pipe (`| head`): what it wanted was written.
        if (err instanceof OutputClosedError) return;
        throw err;
      } finally {
        await reader.close();
      }
      stderr(`edgelog: exported ${thousands(rows)} rows of ${table} to ${file ?? 'stdout'}\n`);
    });
}
