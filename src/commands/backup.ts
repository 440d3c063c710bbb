// `edgelog backup <file>`: a consistent copy of the archive while the worker may be writing to it.
import { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors/index.js';
import { formatBytes, progressText } from '../format/bytes.js';
import { elapsed } from '../format/table.js';
import { backupArchive, type BackupProgress, type BackupResult } from '../store/backup.js';
import { displayUrl } from '../redact.js';
import { readerConfig } from './reader-context.js';

export interface BackupIo {
  /** Where the final line goes. @defaultValue stdout */
  out: (text: string) => void;
  /** Where progress goes; set only when it is a terminal. @defaultValue stderr, if a TTY */
  progress?: (text: string) => void;
}

function defaultIo(): BackupIo {
  return {
    out: (text) => void process.stdout.write(text),
    ...(process.stderr.isTTY ? { progress: (text: string) => void process.stderr.write(text) } : {}),
  };
}

export function backupCommand(io: BackupIo = defaultIo()): Command {
  return new Command('backup')
    .description('copy the archive to <file> while the worker may be writing (SQLite online backup)')
    .argument('<file>', 'where to write the copy')
    .option('--force', 'replace <file> if it exists')
    .action(async (file: string, opts: { force?: boolean }, cmd: Command) => {
      const config = readerConfig(cmd);
      if (config.database.url) {
        // The copy is SQLite's online backup; a server's archive is backed up with the server's tools.
        throw new UsageError(
          `edgelog backup copies a SQLite archive; this one is PostgreSQL (${displayUrl(config.database.url)}): ` +
            'back it up with pg_dump (e.g. pg_dump --format=custom --file=edgelog.dump "$EDGELOG_DATABASE_URL") ' +
            'or the server’s own backups',
        );
      }
      // --force replaces a file, never a directory (which would only fail later, as EISDIR).
      if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
        throw new UsageError(
          `${file} is a directory: name the file to write, e.g. ${join(file, 'edgelog-backup.db')}`,
        );
      }
      if (existsSync(file) && !opts.force) {
        throw new UsageError(`${file} exists: choose another name, or pass --force to replace it`);
      }
      const started = Date.now();
      const controller = new AbortController();
      const interrupt = () => controller.abort(new UsageError('backup interrupted; no file was written'));
      process.once('SIGINT', interrupt);
      process.once('SIGTERM', interrupt);
      // On a terminal, one line rewritten in place at most ten times a second; elsewhere, nothing.
      let shown = 0;
      const onProgress = io.progress
        ? ({ totalPages, remainingPages, pageSize }: BackupProgress) => {
            if (Date.now() - shown < 100) return;
            shown = Date.now();
            const total = totalPages * pageSize;
            io.progress!(`\rbackup ${progressText(total - remainingPages * pageSize, total)}\x1b[K`);
          }
        : undefined;
      let result: BackupResult;
      try {
        result = await backupArchive(config.database.path, file, {
          signal: controller.signal,
          ...(onProgress ? { onProgress } : {}),
        });
      } finally {
        if (shown > 0) io.progress?.('\r\x1b[K');
        process.off('SIGINT', interrupt);
        process.off('SIGTERM', interrupt);
      }
      io.out(
        `backup of ${config.database.path} written to ${result.path}: ${formatBytes(result.bytes)} in ${elapsed(Date.now() - started)}\n`,
      );
    });
}
