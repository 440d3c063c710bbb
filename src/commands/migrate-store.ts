// `edgelog migrate-store --from <file> --to <url>`: moves a SQLite archive into a PostgreSQL one (see
// store/migrate-store/migrate-store.ts for how), printing per table what it read, added and found there
// already, then the checks that the target holds what was copied (store/migrate-store/verify.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import { migrateTarget } from '../config/migrate-target.js';
import { MigrateStoreError } from '../errors/index.js';
import { elapsed, formatTable, thousands } from '../format/table.js';
import { registerUrlCredentials } from '../redact.js';
import { migrateStore, type MigrateStoreResult } from '../store/migrate-store/migrate-store.js';
import { checkPassed, type Check } from '../store/migrate-store/verify.js';
import { formatOption, jsonOption, outputFormat, printJson, type FormatOptions } from './args.js';
import { readerConfig } from './reader-context.js';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ReaderConfig } from '../config/reader-config.js';

export interface MigrateStoreIo {
  out: (text: string) => void;
  /** Progress, on a terminal only. @defaultValue stderr, if a TTY */
  progress?: (text: string) => void;
  /** A warning line. @defaultValue stderr */
  warn?: (text: string) => void;
}

function defaultIo(): MigrateStoreIo {
  return {
    out: (text) => void process.stdout.write(text),
    warn: (text) => void process.stderr.write(text),
    ...(process.stderr.isTTY ? { progress: (text: string) => void process.stderr.write(text) } : {}),
  };
}

interface MigrateStoreFlags extends FormatOptions {
  from: string;
  to?: string;
  batchRows: number;
}

function batchRowsArg(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > 1_000_000) {
    throw new InvalidArgumentError('expected an integer from 1 to 1000000');
  }
  return n;
}

const HELP = `
Copies every table of the SQLite archive into the PostgreSQL archive (migrated first; its day partitions
made for the days copied): entries, quarantined entries, the ingestion ledger with its totals, API
Guardian snapshots, alert state and notifications, the hourly rollups and term counts (the source's,
which count the entries pruned into the history too) and the history's record. The history's parts stay
where they are: the PostgreSQL configuration's history.path names their directory. Rows the target holds already are skipped, so running it again adds nothing, and a run
that was interrupted is completed by running it again; a ledger day, an alert state or a notification
that moved on in the source since (a later pass, a delivery) is brought up to date, and one that moved
further in the target is kept. It ends by checking, zone-day by zone-day (key by key for the alert
tables), that the target holds every row of the source and that its hourly counts add up to its entries
there; a difference is an error (exit status 1), with what to do. Rows the target held of its own (other
zones or days, or more of the same) are left as they are, and named.

The target must not be in use: with a live lease in its ledger (a worker writing to it) nothing is
copied. Stop the workers of the SQLite archive first too, or run migrate-store again after they stopped
to copy what they added. Leases are not copied.

Without --to, the target is the configured archive (EDGELOG_DATABASE_URL or database.url). Keep the
password off the command line, where every user of the host can read it (ps): give it in PGPASSWORD,
or in the configured URL, whose password a --to naming the same server and user takes; a password in
--to works, with a warning. It is never printed. TLS: ?sslmode=require (or verify-full, with
sslrootcert=<file>) in the URL.

Examples:
  PGPASSWORD=… edgelog migrate-store --from /var/lib/edgelog/edgelog.db --to postgres://edgelog@db.internal:5432/edgelog
  EDGELOG_DATABASE_URL=postgres://edgelog:…@db.internal:5432/edgelog edgelog migrate-store --from /var/lib/edgelog/edgelog.db
`;

export function migrateStoreCommand(io: MigrateStoreIo = defaultIo()): Command {
  return new Command('migrate-store')
    .description('copy a SQLite archive into a PostgreSQL archive, then check both hold the same rows')
    .addOption(new Option('--from <file>', 'the SQLite archive to copy').makeOptionMandatory())
    .addOption(
      new Option(
        '--to <url>',
        'the PostgreSQL archive: postgres://user@host:port/database, its password in PGPASSWORD (default: EDGELOG_DATABASE_URL or database.url)',
      ),
    )
    .addOption(
      new Option('--batch-rows <n>', 'rows per batch and transaction (memory grows with it)')
        .argParser(batchRowsArg)
        .default(10_000),
    )
    .addOption(formatOption())
    .addOption(jsonOption())
    .addHelpText('after', HELP)
    .action(async (opts: MigrateStoreFlags, cmd: Command) => {
      registerUrlCredentials(opts.to);
      const target = migrateTarget(opts.to, readerConfig(cmd).database.url);
      registerUrlCredentials(target.url);
      if (target.passwordInArgv) {
        io.warn?.(
          'edgelog: warning: --to holds a password, which other users of this host can read (ps, /proc) and ' +
            'shell history keeps: leave it out of --to and set PGPASSWORD, or give the URL in ' +
            'EDGELOG_DATABASE_URL or database.url\n',
        );
      }
      const format = outputFormat(opts);
      const shown = { at: 0, any: false };
      const result = await migrateStore({
        from: opts.from,
        to: target.url,
        batchRows: opts.batchRows,
        ...(io.progress
          ? {
              onProgress: ({ table, read, total }) => {
                if (Date.now() - shown.at < 100 && read < total) return;
                shown.at = Date.now();
                shown.any = true;
                io.progress!(`\rcopying ${table}: ${thousands(read)} of ${thousands(total)} rows\x1b[K`);
              },
            }
          : {}),
      }).finally(() => {
        if (shown.any) io.progress?.('\r\x1b[K');
      });
      if (format === 'json') printJson(result);
      else io.out(renderResult(result) + historyNote(opts.from, readerConfig(cmd)));
      if (!result.ok) {
        throw new MigrateStoreError(`the copy differs from the source: ${result.mismatches.join('\n')}`);
      }
    });
}

/**
 * The history goes with the archive: its parts stay where they are, and the PostgreSQL configuration
 * names their directory (config/history-path.ts refuses one that does not).
 */
export function historyNote(from: string, config: ReaderConfig): string {
  const own =
    resolve(config.database.path) === resolve(from) && config.history.path ? config.history.path : null;
  const root = own ?? join(dirname(resolve(from)), 'history');
  if (!existsSync(root)) return '';
  return (
    `history: the source's history is in ${root}: set history.path to it in the PostgreSQL ` +
    'configuration (every worker and reader reads it from there; its parts are not copied)\n'
  );
}

/** The text report: what was copied, what was checked, how long it took. */
export function renderResult(r: MigrateStoreResult): string {
  const lines = [`migrate-store ${r.source} → ${r.target}`];
  lines.push(
    formatTable(
      [
        { header: 'table', value: (t) => t.table },
        { header: 'read', value: (t) => thousands(t.read), right: true },
        { header: 'inserted', value: (t) => thousands(t.inserted), right: true },
        { header: 'updated', value: (t) => thousands(t.updated), right: true },
        { header: 'already there', value: (t) => thousands(t.alreadyThere), right: true },
      ],
      r.tables,
    ),
  );
  const escaped = r.tables.filter((t) => t.escaped > 0);
  for (const t of escaped) {
    lines.push(
      `note: ${thousands(t.escaped)} rows of ${t.table} hold U+0000, which PostgreSQL cannot store: copied with it written \\u0000`,
    );
  }
  if (r.notCopied.length > 0) lines.push(`note: not edgelog's, not copied: ${r.notCopied.join(', ')}`);
  if (r.sourceLiveLeases > 0) {
    lines.push(
      `note: the source has ${r.sourceLiveLeases} live lease(s): a worker may still be writing it; run migrate-store again once it stopped`,
    );
  }
  lines.push('');
  lines.push(
    formatTable(
      [
        { header: 'check', value: (c) => `${c.table} ${c.kind === 'rows' ? 'rows' : 'sum(count)'}` },
        { header: 'source', value: (c) => thousands(c.source), right: true },
        { header: 'target', value: (c) => thousands(c.target), right: true },
        { header: '', value: checkVerdict },
      ],
      r.checks,
      80,
    ),
  );
  for (const note of r.notes) lines.push(`note: ${note}`);
  const read = r.tables.reduce((n, t) => n + t.read, 0);
  const rate = r.elapsedMs > 0 ? Math.round((read / r.elapsedMs) * 1000) : 0;
  lines.push(
    r.ok
      ? `verified: the target holds every row of the source; ${thousands(read)} rows read in ${elapsed(r.elapsedMs)} (${thousands(rate)} rows/s)`
      : `NOT verified: ${r.mismatches.length} check(s) differ`,
  );
  return `${lines.join('\n')}\n`;
}

/** A check's last column: ok, or what differs. */
function checkVerdict(c: Check): string {
  if (checkPassed(c)) return 'ok';
  return c.kind === 'rows'
    ? `${thousands(c.missing)} MISSING`
    : `DIFFERS from ${thousands(c.entries)} entries`;
}
