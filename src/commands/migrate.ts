// `edgelog migrate`: apply pending migrations and report each file's status.
import { Command } from 'commander';
import { openDatabase } from '../store/sqlite/database.js';
import { migrate } from '../store/sqlite/migrate.js';
import { formatTable } from '../format/table.js';
import { commandContext, printJson } from './shared.js';
import { formatOption, jsonOption, outputFormat, type FormatOptions } from './args.js';

export function migrateCommand(): Command {
  return new Command('migrate')
    .description('apply pending database migrations and show the status of each')
    .addOption(formatOption())
    .addOption(jsonOption())
    .action((opts: FormatOptions, cmd: Command) => {
      const { config } = commandContext(cmd);
      const db = openDatabase(config.database.path);
      try {
        const results = migrate(db);
        if (outputFormat(opts) === 'json') printJson({ database: config.database.path, migrations: results });
        else {
          process.stdout.write(`database ${config.database.path}\n`);
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
      } finally {
        db.close();
      }
    });
}
