// write_batch: the number each page's transaction stamps its rows with (migrations/sqlite/0012). SQLite
// has one writer at a time, so the numbers commit in the order they are taken, and every batch up to
// the `last` a reader sees has committed: the history's flush takes the rows below that.
import type { Db } from './database.js';

export class WriteBatchRepository {
  private readonly take;
  private readonly read;

  constructor(db: Db) {
    this.take = db.prepare('UPDATE write_batch SET last = last + 1 WHERE id = 1 RETURNING last').pluck();
    this.read = db.prepare('SELECT last FROM write_batch WHERE id = 1').pluck();
  }

  /** The next batch number; call inside the transaction that stores its rows. */
  next(): number {
    return this.take.get() as number;
  }

  /** The last number taken: every batch up to it has committed (in this connection's snapshot). */
  last(): number {
    return this.read.get() as number;
  }
}
