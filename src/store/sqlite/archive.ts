// The archive as the rest of edgelog sees it: the database, migrated, with one repository per table.
import type { Logger } from '../../logger.js';
import { startCheckpointer } from './checkpointer.js';
import { openDatabase, type Db } from './database.js';
import { GuardianRepository } from './guardian.js';
import { LedgerRepository } from './ledger.js';
import { assertMigrated, migrate } from './migrate.js';
import { OriginLogsRepository } from './origin-logs.js';
import { QuarantineRepository } from './quarantine.js';
import { ShieldLogsRepository } from './shield-logs.js';
import { WriteBatchRepository } from './write-batch.js';

export interface Archive {
  db: Db;
  ledger: LedgerRepository;
  origin: OriginLogsRepository;
  shield: ShieldLogsRepository;
  quarantine: QuarantineRepository;
  /** The write batch each page's transaction takes (write-batch.ts). */
  batches: WriteBatchRepository;
  guardian: GuardianRepository;
  close(): Promise<void>;
}

export interface ArchiveOptions {
  logger?: Logger;
  /** Checkpoint the WAL from a background thread (the ingesting engine). @defaultValue false */
  backgroundCheckpoints?: boolean;
  /** Page cache of this connection. @defaultValue 64 */
  cacheMiB?: number;
}

/** Opens the archive for writing and applies pending migrations first. */
export function openArchive(path: string, opts: ArchiveOptions = {}): Archive {
  const { logger } = opts;
  const db = openDatabase(path, { cacheMiB: opts.cacheMiB ?? 64 });
  try {
    const results = migrate(db);
    assertMigrated(results);
    const applied = results.filter((r) => r.status === 'applied').map((r) => r.name);
    if (applied.length > 0) logger?.info({ applied, path }, 'database migrated');
  } catch (err) {
    db.close();
    throw err;
  }
  const checkpointer = opts.backgroundCheckpoints ? startCheckpointer(db, logger) : null;
  const batches = new WriteBatchRepository(db);
  return {
    db,
    ledger: new LedgerRepository(db),
    origin: new OriginLogsRepository(db, batches),
    shield: new ShieldLogsRepository(db, batches),
    batches,
    quarantine: new QuarantineRepository(db),
    guardian: new GuardianRepository(db),
    close: () => {
      const closeDb = () => void (db.open && db.close());
      if (!checkpointer) return Promise.resolve(closeDb());
      return checkpointer.stop().then(closeDb);
    },
  };
}
