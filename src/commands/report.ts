// `edgelog report origin|shield|guardian`: canned reports with terminal charts, or JSON for machines.
import { Argument, Command, InvalidArgumentError } from 'commander';
import { OutputClosedError, streamOutput, type Stdout } from '../format/output.js';
import { DEFAULT_TOP, REPORT_KINDS, runReport, type ReportKind } from '../report/run-report.js';
import type { Day } from '../time/utc-day.js';
import { dayArg, formatOption, idArg, jsonOption, outputFormat } from './args.js';
import { openReader } from '../store/open-reader.js';
import { readerConfig } from './reader-context.js';

interface ReportCliOptions {
  zone?: number;
  from?: Day;
  to?: Day;
  format: 'table' | 'json';
  json?: boolean;
  top?: number;
}

function countArg(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** Charts fill the terminal's width, within reason; 80 columns when stdout is not a terminal. */
function chartWidth(stdout: Stdout): number {
  return stdout.isTTY && stdout.columns ? Math.min(160, Math.max(40, stdout.columns)) : 80;
}

export function reportCommand(stdout: Stdout = process.stdout, clock: () => number = Date.now): Command {
  return new Command('report')
    .description('reports with terminal charts: origin errors, Shield (WAF) events, API Guardian counters')
    .addArgument(new Argument('<report>', 'origin, shield or guardian').choices(REPORT_KINDS))
    .option('--zone <id>', 'one zone: a pull zone for origin, a Shield zone otherwise (default: all)', idArg)
    .option('--from <day>', 'first UTC day, YYYY-MM-DD (default: six days before --to)', dayArg)
    .option('--to <day>', 'last UTC day, YYYY-MM-DD (default: today)', dayArg)
    .addOption(formatOption())
    .addOption(jsonOption())
    .option(
      '--top <n>',
      `entries per top list; for guardian, snapshots listed per zone (default: ${DEFAULT_TOP})`,
      countArg,
    )
    .action(async (kind: ReportKind, opts: ReportCliOptions, cmd: Command) => {
      const config = readerConfig(cmd);
      const format = outputFormat(opts) as ReportCliOptions['format'];
      const params = { ...opts, format, width: chartWidth(stdout), now: clock() };
      const reader = await openReader(config.database, { applicationName: 'edgelog report' });
      try {
        await reader.report(streamOutput(stdout), (reports, out) => runReport(reports, kind, params, out));
      } catch (err) {
        // The reader closed the pipe (`| head`): what it wanted was written.
        if (!(err instanceof OutputClosedError)) throw err;
      } finally {
        await reader.close();
      }
    });
}
