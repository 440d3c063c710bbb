// The command line: global options, one subcommand per concern, one clear line on failure.
import { Command, CommanderError } from 'commander';
import { alertsCommand } from './commands/alerts.js';
import { apiCommand } from './commands/api.js';
import { demoCommand } from './commands/demo.js';
import { migrateCommand } from './commands/migrate.js';
import { queryCommand } from './commands/query.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { simulateCommand } from './commands/simulate.js';
import { statusCommand } from './commands/status.js';
import { syncCommand } from './commands/sync.js';
import { describeError, EdgelogError } from './errors/index.js';
import { redact } from './redact.js';

export function buildProgram(): Command {
  const program = new Command('edgelog')
    .description('Archive CDN origin error logs and Shield event logs into SQLite; query, report and alert.')
    .option('-c, --config <file>', 'configuration file (default: $EDGELOG_CONFIG or ./edgelog.config.json)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  program.addCommand(demoCommand());
  program.addCommand(runCommand());
  program.addCommand(syncCommand());
  program.addCommand(statusCommand());
  program.addCommand(migrateCommand());
  program.addCommand(queryCommand());
  program.addCommand(reportCommand());
  program.addCommand(alertsCommand());
  program.addCommand(apiCommand());
  program.addCommand(simulateCommand());
  return program;
}

/** Entry point of bin/edgelog.js. Sets process.exitCode; never throws. */
export async function main(argv: string[]): Promise<void> {
  // `edgelog … | head`: the reader left; that is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander already printed its message (or the help / version text).
      process.exitCode = err.exitCode;
      return;
    }
    const prefix = err instanceof EdgelogError ? '' : 'unexpected error: ';
    process.stderr.write(`edgelog: ${prefix}${redact(describeError(err))}\n`);
    if (!(err instanceof EdgelogError) && process.env.EDGELOG_DEBUG) console.error(err);
    process.exitCode = 1;
  }
}
