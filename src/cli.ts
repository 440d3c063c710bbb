// The command line: global options, one subcommand per concern, one clear line on failure.
// Start-up is part of every command's cost: only the module of the command that runs is loaded (its
// imports pull in bullmq, ioredis, undici, zod, better-sqlite3 or the engine as it needs them); the
// others appear in `edgelog --help` from the table below without being imported.
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Help, Option } from 'commander';

export interface CommandEntry {
  name: string;
  /** How `edgelog --help` lists it: the name, `[options]` if it has any, and its arguments. */
  term: string;
  description: string;
  /** Imports the command's module and builds the full command. */
  load: () => Promise<Command>;
}

/** Every subcommand, in the order `edgelog --help` lists them. test/unit/cli-registry.test.ts checks
 * that each term and description matches what the loaded command declares. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'demo',
    term: 'demo [options]',
    description:
      'start the built-in API simulator, sync the last three days of a few zones, and show what landed',
    load: async () => (await import('./commands/demo.js')).demoCommand(),
  },
  {
    name: 'init',
    term: 'init [options]',
    description: 'write a commented edgelog.config.json with your zones, check it, and say what to run next',
    load: async () => (await import('./commands/init.js')).initCommand(),
  },
  {
    name: 'run',
    term: 'run',
    description:
      'run the worker: reconcile schedulers, catch up missed days, process jobs until SIGINT/SIGTERM',
    load: async () => (await import('./commands/run.js')).runCommand(),
  },
  {
    name: 'sync',
    term: 'sync [options]',
    description: 'fetch the given UTC days of the configured zones now, wait, and print a summary',
    load: async () => (await import('./commands/sync.js')).syncCommand(),
  },
  {
    name: 'status',
    term: 'status [options]',
    description:
      'per zone: freshness, the oldest day not yet complete and when the API forgets it, the last error; then the recent days, the queue and its schedulers',
    load: async () => (await import('./commands/status.js')).statusCommand(),
  },
  {
    name: 'migrate',
    term: 'migrate [options]',
    description: 'apply pending database migrations and show the status of each',
    load: async () => (await import('./commands/migrate.js')).migrateCommand(),
  },
  {
    name: 'migrate-store',
    term: 'migrate-store [options]',
    description: 'copy a SQLite archive into a PostgreSQL archive, then check both hold the same rows',
    load: async () => (await import('./commands/migrate-store.js')).migrateStoreCommand(),
  },
  {
    name: 'query',
    term: 'query [options] [sql]',
    description:
      'run a read-only SQL statement against the archive, or a prompt on a terminal (tables: --schema, docs/SQL.md)',
    load: async () => (await import('./commands/query.js')).queryCommand(),
  },
  {
    name: 'serve',
    term: 'serve [options]',
    description:
      'serve the web console over the archive: ledger calendar, log explorer, SQL (docs/CONSOLE.md)',
    load: async () => (await import('./commands/serve.js')).serveCommand(),
  },
  {
    name: 'export',
    term: 'export [options]',
    description:
      "write one table's entries of a range of UTC days as Parquet, NDJSON or CSV (history and newer rows)",
    load: async () => (await import('./commands/export.js')).exportCommand(),
  },
  {
    name: 'compact',
    term: 'compact [options]',
    description:
      'compact settled zone-days into the Parquet history now, then prune the store past history.hotDays',
    load: async () => (await import('./commands/compact.js')).compactCommand(),
  },
  {
    name: 'report',
    term: 'report [options] <report>',
    description: 'reports with terminal charts: origin errors, Shield (WAF) events, API Guardian counters',
    load: async () => (await import('./commands/report.js')).reportCommand(),
  },
  {
    name: 'backup',
    term: 'backup [options] <file>',
    description: 'copy the archive to <file> while the worker may be writing (SQLite online backup)',
    load: async () => (await import('./commands/backup.js')).backupCommand(),
  },
  {
    name: 'alerts',
    term: 'alerts',
    description: 'alert rules: their state, evaluation now, and hook tests',
    load: async () => (await import('./commands/alerts.js')).alertsCommand(),
  },
  {
    name: 'api',
    term: 'api',
    description: 'call one operation of the read API and print the validated JSON',
    load: async () => (await import('./commands/api.js')).apiCommand(),
  },
  {
    name: 'completion',
    term: 'completion [shell]',
    description: 'print a shell completion script, e.g. eval "$(edgelog completion bash)"',
    load: async () => (await import('./commands/completion.js')).completionCommand(buildFullProgram),
  },
  {
    name: 'simulate',
    term: 'simulate [options]',
    description: 'run the API simulator on loopback (deterministic data, fault knobs) until SIGINT/SIGTERM',
    load: async () => (await import('./commands/simulate.js')).simulateCommand(),
  },
];

/** The version in package.json (from dist/ and src/ alike, one folder up). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The program with its global options and no subcommands. */
function baseProgram(): Command {
  const terms = new Map(COMMANDS.map((c) => [c.name, c.term]));
  return (
    new Command('edgelog')
      .description(
        'Archive CDN origin error logs and Shield event logs into SQLite or PostgreSQL; query, report and alert.',
      )
      .option('-c, --config <file>', 'configuration file (default: $EDGELOG_CONFIG or ./edgelog.config.json)')
      // Checked here, for every command: pino's own refusal of an unknown level is cryptic, and commands
      // that never log would not check it at all.
      .addOption(
        new Option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent').choices([
          'fatal',
          'error',
          'warn',
          'info',
          'debug',
          'trace',
          'silent',
        ]),
      )
      .version(packageVersion(), '-V, --version', 'the version of edgelog')
      .showHelpAfterError('(run with --help for usage)')
      .configureHelp({
        // Unloaded commands declare no options or arguments; the table says how to list them.
        subcommandTerm: (cmd) => terms.get(cmd.name()) ?? new Help().subcommandTerm(cmd),
      })
      .exitOverride()
  );
}

/**
 * The subcommand `args` (argv without node and the script) names, if any: the first operand after the
 * program's own options, or the one after `help`. Pure; reads the options' definitions from `program`.
 */
export function subcommandOf(program: Command, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-') || arg === '-') {
      return arg === 'help' && i + 1 < args.length ? args[i + 1] : arg;
    }
    const flag = arg.startsWith('--') ? arg.split('=')[0]! : arg.slice(0, 2);
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    // `--config file` and `-c file` take the next word; `--config=file` and `-cfile` do not.
    const inline = arg.startsWith('--') ? arg.includes('=') : arg.length > 2;
    if (option && (option.required || option.optional) && !inline) i++;
  }
  return undefined;
}

/**
 * The program for one invocation: the named subcommand loaded in full, the others as name and
 * description only (enough for `edgelog --help`; they cannot run, and need not).
 */
export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = baseProgram();
  const wanted = subcommandOf(program, argv.slice(2));
  for (const entry of COMMANDS) {
    program.addCommand(
      entry.name === wanted ? await entry.load() : new Command(entry.name).description(entry.description),
    );
  }
  return program;
}

/** The program with every subcommand loaded in full (shell completion reads their definitions). */
export async function buildFullProgram(): Promise<Command> {
  const program = baseProgram();
  for (const entry of COMMANDS) program.addCommand(await entry.load());
  return program;
}

/** Entry point of bin/edgelog.js. Sets process.exitCode; never throws. */
export async function main(argv: string[]): Promise<void> {
  // `edgelog … | head`: the reader left; that is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  try {
    const program = await buildProgram(argv);
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander already printed its message (or the help / version text).
      process.exitCode = err.exitCode;
      return;
    }
    // Loaded here, not at the top: `--help` needs none of it (a command that failed has it loaded).
    const [{ EdgelogError }, { failureText }] = await Promise.all([
      import('./errors/index.js'),
      import('./format/failure-text.js'),
    ]);
    // The message may quote the API or the archive: escaped, keeping the lines of a multi-line one.
    process.stderr.write(`${failureText(err)}\n`);
    if (!(err instanceof EdgelogError) && process.env.EDGELOG_DEBUG) console.error(err);
    process.exitCode = 1;
  }
}
