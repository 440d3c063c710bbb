import { EdgelogError } from '../../errors/edgelog-error.js';

/**
 * An archive read as an immutable snapshot (no `-wal` was there) was written while it was read: SQLite
 * took no locks, so the rows read may mix the old and the new state. Running it again reads it through
 * the write-ahead log, with locks.
 */
export class SnapshotChangedError extends EdgelogError {
  override name = 'SnapshotChangedError';
  constructor(file: string, cause?: unknown) {
    super(
      `the archive ${file} changed while it was read without locks (edgelog began writing to it): ` +
        'the result may mix old and new rows; run it again',
      { cause },
    );
  }
}
