// Idempotent inserts of a page of rows, many rows per statement: each statement costs a call into
// SQLite and a VM program run, so sixteen rows a statement store a page about an eighth faster than
// one (see docs/PERFORMANCE.md). Tells the caller whether every row was new, and if not, from which
// rowid on the new ones are (an INTEGER PRIMARY KEY grows past the largest rowid).
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

const ROWS_PER_STATEMENT = 16;

export interface Inserted {
  /** Rows inserted (the others were already archived). */
  inserted: number;
  /** Every new row has a rowid above this one. */
  afterId: number;
}

export class BatchInsert {
  private readonly many: Statement;
  private readonly one: Statement;
  private readonly maxId: Statement;
  private readonly manyArgs: unknown[];
  private readonly oneArgs: unknown[];

  /** `conflict` is the unique key's column list (null: plain inserts, for a table without one). */
  constructor(db: Db, table: string, columns: readonly string[], conflict: string | null) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    const onConflict = conflict === null ? '' : ` ON CONFLICT (${conflict}) DO NOTHING`;
    const sql = (n: number) =>
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array<string>(n).fill(row).join(', ')}${onConflict}`;
    this.many = db.prepare(sql(ROWS_PER_STATEMENT));
    this.one = db.prepare(sql(1));
    this.maxId = db.prepare(`SELECT coalesce(max(id), 0) FROM ${table}`).pluck();
    this.manyArgs = new Array<unknown>(columns.length * ROWS_PER_STATEMENT);
    this.oneArgs = new Array<unknown>(columns.length);
  }

  /**
   * Inserts rows 0 … n-1; `fill(args, at, i)` writes row `i`'s values, in `columns` order, into `args`
   * from index `at`. Call inside a transaction.
   */
  run(n: number, fill: (args: unknown[], at: number, i: number) => void): Inserted {
    const afterId = this.maxId.get() as number;
    const width = this.oneArgs.length;
    let inserted = 0;
    let i = 0;
    for (; i + ROWS_PER_STATEMENT <= n; i += ROWS_PER_STATEMENT) {
      for (let j = 0; j < ROWS_PER_STATEMENT; j++) fill(this.manyArgs, j * width, i + j);
      inserted += this.many.run(this.manyArgs).changes;
    }
    for (; i < n; i++) {
      fill(this.oneArgs, 0, i);
      inserted += this.one.run(this.oneArgs).changes;
    }
    return { inserted, afterId };
  }
}

export interface StoreResult {
  /** Rows not yet archived (inserted now). */
  inserted: number;
  malformed: number;
  firstTs: number | null;
  lastTs: number | null;
}

export interface Rollup {
  /** Counts every row of the batch (all of them were new, with the rowids after `afterId`). */
  all(afterId: number): void;
  /** Counts the rows with a rowid above `afterId` (some of the batch was already archived). */
  after(afterId: number): void;
}

/**
 * Stores a batch of `timestamps.length` rows and counts the new ones into the rollup: from the batch
 * itself when all were new (the common case), from the table when only some were.
 */
export function storeBatch(
  timestamps: readonly number[],
  parseErrors: ReadonlyArray<string | null>,
  insert: () => Inserted,
  rollup: Rollup,
): StoreResult {
  const n = timestamps.length;
  const result: StoreResult = { inserted: 0, malformed: 0, firstTs: null, lastTs: null };
  for (let i = 0; i < n; i++) {
    const t = timestamps[i]!;
    if (parseErrors[i] !== null) result.malformed++;
    if (result.firstTs === null || t < result.firstTs) result.firstTs = t;
    if (result.lastTs === null || t > result.lastTs) result.lastTs = t;
  }
  const { inserted, afterId } = insert();
  result.inserted = inserted;
  if (inserted === n) rollup.all(afterId);
  else if (inserted > 0) rollup.after(afterId);
  return result;
}
