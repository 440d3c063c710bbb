// The idempotent insert of a page's entries on SQLite, by the columns of entry-tables.ts (the one list):
// the zone and the day, which every row of a page shares, then the batch's fields, then the write batch
// (write-batch.ts) the page's transaction took.
import type { AnyBatch, EntryTable } from '../entry-tables.js';
import { BatchInsert } from './batch-insert.js';
import type { Db } from './database.js';

/** The statement's columns: zone, log_date, the entry columns in batch order, then `batch`. */
export const entryInsertColumns = (t: EntryTable): string[] => [
  t.zoneColumn,
  'log_date',
  ...t.columns,
  'batch',
];

/** Inserts into `t`'s table, doing nothing for a row its key already holds. */
export function entryInsert(db: Db, t: EntryTable): BatchInsert {
  return new BatchInsert(db, t.table, entryInsertColumns(t), t.key.join(', '));
}

/** BatchInsert's `fill` for a page of `zone`'s `day` stored in `batch`: row `i` in entryInsertColumns order. */
export function entryRows(
  t: EntryTable,
  zone: number,
  day: string,
  b: AnyBatch,
  batch: number,
): (args: unknown[], at: number, i: number) => void {
  const byField = b as unknown as Record<string, readonly unknown[]>;
  const columns = t.fields.map((f) => byField[f]!);
  const last = 2 + columns.length;
  return (args, at, i) => {
    args[at] = zone;
    args[at + 1] = day;
    for (let k = 0; k < columns.length; k++) args[at + 2 + k] = columns[k]![i];
    args[at + last] = batch;
  };
}
