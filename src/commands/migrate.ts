// `edgelog migrate`: apply pending migrations and report each file's status.
import { Command } from 'commander';
import { displayUrl } from '../redact.js';
import { migrateArchive } from '../store/open-store.js';
import { formatTable } from '../format/table.js';
import { commandContext, printJson } from './shared.js';
import { formatOption, jsonOption, outputFormat, type FormatOptions } from './args.js';

export function migrateCommand(): Command {
  return new Command('migrate')
    .description('apply pending database migrations and show the status of each')
    .addOption(formatOption())
    .addOption(jsonOption())
    .action(async (opts: FormatOptions, cmd: Command) => {
      const { config } = commandContext(cmd);
      const server = config.database.url;
      const results = await migrateArchive(config.database);
      const where = server !== null ? displayUrl(server) : config.database.path;
      if (outputFormat(opts) === 'json') printJson({ database: where, migrations: results });
      else {
        process.stdout.write(`database ${where}\n`);
        process.stdout.write(
          `${formatTable(
            [
              { header: 'migration', value: (r) => r.name },
              { header: 'status', value: (r) => r.status },
              { header: 'error', value: (r) => r.error ?? '' },
            ],
            results,
            100,
          )}\n`,
        );
      }
      if (results.some((r) => r.status === 'failed' || r.status === 'changed-after-apply'))
        process.exitCode = 1;
    });
}
