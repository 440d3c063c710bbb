// `edgelog export`: one table's entries of a range of UTC days, from the history and the rows not yet in
// it (each entry once, as `edgelog query` reads them), as Parquet, NDJSON or CSV, to a file or stdout;
// streamed, so there is no row cap and memory stays flat.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  existsSync,
  linkSync,
  mkdtempSync,
  renameSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { historyPath } from '../config/history-path.js';
import { UsageError } from '../errors/usage-error.js';
import { thousands } from '../format/table.js';
import type { HistoryTable } from '../history/layout.js';
import { OutputClosedError, streamOutput, type Stdout } from '../format/output.js';
import type { Day } from '../time/utc-day.js';
import { dayArg, idListArg } from './args.js';
import { readerConfig } from './reader-context.js';

const EXPORT_FORMATS = ['parquet', 'ndjson', 'csv'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];
const SOURCES: Record<string, HistoryTable> = {
  origin: 'origin_error_logs',
  shield: 'shield_event_logs',
  quarantine: 'quarantined_entries',
};

interface ExportCliOptions {
  from: Day;
  to: Day;
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
): Command {
  return new Command('export')
    .description(
      "write one table's entries of a range of UTC days as Parquet, NDJSON or CSV (history and newer rows)",
    )
    .requiredOption('--from <day>', 'first UTC day (log_date), YYYY-MM-DD', dayArg)
    .requiredOption('--to <day>', 'last UTC day (log_date), YYYY-MM-DD', dayArg)
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
      if (opts.from > opts.to) throw new UsageError(`--from ${opts.from} is after --to ${opts.to}`);
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
        scope: { from: opts.from, to: opts.to, ...(opts.zone ? { zones: opts.zone } : {}) },
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

/**
 * Writes through a temporary file: beside `file` (then linked in place, so an existing file is never
 * replaced unless `force`, and a reader never sees a part), or, with no file, in the temp directory
 * and then copied to stdout.
 */
async function writeVia(
  file: string | null,
  force: boolean,
  write: (temp: string) => Promise<number>,
  stdout?: Stdout,
): Promise<number> {
  if (file === null) {
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-export-'));
    try {
      const temp = join(dir, 'export.parquet');
      const rows = await write(temp);
      for await (const chunk of createReadStream(temp)) {
        if (!stdout!.write(chunk as Buffer)) await once(stdout!, 'drain');
      }
      return rows;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const temp = join(dirname(file), `.${basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const rows = await write(temp);
    // Entries hold what clients sent (cookies, tokens): the file is the owner's alone, as a backup is.
    chmodSync(temp, 0o600);
    if (force) renameSync(temp, file);
    else {
      try {
        linkSync(temp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new UsageError(
            `${file} appeared meanwhile: choose another --output, or --force to replace it`,
          );
        throw err;
      }
    }
    return rows;
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
}
