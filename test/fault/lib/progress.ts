// How far an archive has got, read from outside while a CLI child writes it: the rows and quarantined
// entries stored so far. Only "not there yet" is taken for zero; any other database error is thrown.
import { existsSync } from 'node:fs';
import { openDatabase, type Db } from '../../../src/store/sqlite/database.js';

/** True for the errors of an archive that a starting process has not created yet. */
export function notCreatedYet(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /no such table|unable to open database file|SQLITE_CANTOPEN/.test(message);
}

export class ProgressProbe {
  private db: Db | undefined;

  constructor(private readonly path: string) {}

  /** Entries stored so far (rows and quarantined), 0 before the archive and its tables exist. */
  entries(): number {
    try {
      if (!this.db) {
        if (!existsSync(this.path)) return 0;
        this.db = openDatabase(this.path, { readonly: true });
      }
      return this.db
        .prepare(
          `SELECT (SELECT count(*) FROM origin_error_logs) + (SELECT count(*) FROM shield_event_logs)
                + (SELECT count(*) FROM quarantined_entries)`,
        )
        .pluck()
        .get() as number;
    } catch (err) {
      if (notCreatedYet(err)) {
        this.close(); // opened before the schema: open again next time
        return 0;
      }
      throw err;
    }
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }
}
