// How far an archive has got, read from outside while a CLI child writes it: the rows and quarantined
// entries stored so far, on either store. Only "not there yet" is taken for zero; any other database error
// is thrown.
import { existsSync } from 'node:fs';
import { openReader, type ArchiveLocation, type ArchiveReader } from '../../support/archive-reader.js';

/** PostgreSQL's undefined_table: the archive's database exists, its schema does not yet. */
const UNDEFINED_TABLE = '42P01';

/** True for the errors of an archive that a starting process has not created yet (SQLite or PostgreSQL). */
export function notCreatedYet(err: unknown): boolean {
  if ((err as { code?: unknown } | null)?.code === UNDEFINED_TABLE) return true;
  const message = err instanceof Error ? err.message : String(err);
  return /no such table|unable to open database file|SQLITE_CANTOPEN/.test(message);
}

export class ProgressProbe {
  private reader: ArchiveReader | undefined;

  constructor(private readonly at: ArchiveLocation) {}

  /** Entries stored so far (rows and quarantined), 0 before the archive and its tables exist. */
  async entries(): Promise<number> {
    try {
      if (!this.reader) {
        if (this.at.store === 'sqlite' && !existsSync(this.at.path)) return 0;
        this.reader = await openReader(this.at);
      }
      const n = await this.reader.value(
        `SELECT (SELECT count(*) FROM origin_error_logs) + (SELECT count(*) FROM shield_event_logs)
              + (SELECT count(*) FROM quarantined_entries)`,
      );
      return Number(n);
    } catch (err) {
      if (notCreatedYet(err)) {
        // SQLite: opened before the schema, open again next time. PostgreSQL: the connection is fine.
        if (this.at.store === 'sqlite') await this.close();
        return 0;
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    await reader?.close();
  }
}
