// storePage on PostgreSQL: a page's rows, their rollup counts, its quarantined entries and the ledger's
// progress in one transaction.
//
// Two paths, measured in bench/postgres-drivers.ts (docs/POSTGRES.md has the figures):
// - copy (the common case, every row new): COPY straight into the entry table. The unique key makes the
//   COPY fail whole on any row already archived; when it succeeds every row was new, so the rollup is
//   counted from the batch itself. Fastest measured: about the rate of a COPY into an unindexed table
//   plus the key's index.
// - merge (a page re-fetched, or a failed copy): COPY into a per-connection staging table, then INSERT …
//   SELECT … ON CONFLICT DO NOTHING RETURNING, whose returned rows are counted into the rollup.
// Either way the writer counts the rollup (storable.ts rollupValue decides its keys) and the page's last
// statement upserts it. Rows reach it vetted: ingestion quarantines an entry no store can hold
// (storable.ts), so this store and SQLite's get the same rows.
// The writer remembers per day whether its last page met archived rows, and takes the merge path
// straight away while they do (a day fetched again meets them on every page).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { RollupCounter, hourStart } from '../hourly-rollup.js';
import type { DayKey } from '../ledger-types.js';
import { pageCounts, type LeaseLost, type PageInput, type PageStored, type StoreResult } from '../store.js';
import { copyField } from './copy-text.js';
import { rollupValue } from '../../values/storable.js';
import { ENTRY_TABLES, type AnyBatch, type EntryTable } from '../entry-tables.js';
import {
  copyEntriesSql,
  copyStageSql,
  createStageSql,
  mergeStageSql,
  pageSql,
  TAKE_BATCH_SQL,
} from './page-sql.js';
import { daysOf } from './partition-plan.js';
import { storableText } from './unstorable.js';
import { returnedTermColumns, storeTerms } from './terms.js';
import { batchTermColumns } from '../terms.js';
import type { Partitions } from './partitions.js';
import { Rollback, UNIQUE_VIOLATION, sqlState, transaction } from './transaction.js';
import type { Day } from '../../time/utc-day.js';

type Path = 'copy' | 'merge';
type Value = string | number | null;

/** Days remembered as "meets archived rows"; beyond this many the memory starts over. */
const MAX_REMEMBERED = 10_000;

export class PageWriter {
  private readonly mergeDays = new Set<string>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly partitions: Partitions,
  ) {}

  async store(
    key: DayKey,
    owner: string,
    page: PageInput,
    now: number,
    leaseMs: number,
  ): Promise<PageStored | LeaseLost> {
    if (page.source !== key.source) {
      throw new TypeError(`storePage: a ${page.source} page for a ${key.source} day`);
    }
    const t = ENTRY_TABLES[key.source];
    const stats = batchStats(page.batch);
    const dayId = `${key.source}|${key.zone}|${key.day}`;
    // Entry partitions for the rows' days; the quarantine's for the day fetched, where its entries go.
    const result = await this.partitions.writing(
      [key.day as Day, ...daysOf(page.batch.timestamp)],
      [key.day as Day],
      async () => {
        const path: Path = this.mergeDays.has(dayId) ? 'merge' : 'copy';
        try {
          return await this.attempt(t, key, owner, page, stats, now, leaseMs, path);
        } catch (err) {
          // Some row was archived already: the COPY stored nothing.
          if (path !== 'copy' || sqlState(err) !== UNIQUE_VIOLATION) throw err;
          return await this.attempt(t, key, owner, page, stats, now, leaseMs, 'merge');
        }
      },
    );
    if (result.kind === 'stored') this.remember(dayId, result.inserted < page.batch.logId.length);
    return result;
  }

  private remember(dayId: string, metArchived: boolean): void {
    if (!metArchived) {
      this.mergeDays.delete(dayId);
      return;
    }
    if (this.mergeDays.size >= MAX_REMEMBERED) this.mergeDays.clear();
    this.mergeDays.add(dayId);
  }

  private attempt(
    t: EntryTable,
    key: DayKey,
    owner: string,
    page: PageInput,
    stats: Omit<StoreResult, 'inserted'>,
    now: number,
    leaseMs: number,
    path: Path,
  ): Promise<PageStored | LeaseLost> {
    const b = page.batch;
    const n = b.logId.length;
    return transaction<PageStored | LeaseLost>(this.pool, async (c) => {
      // The page's write batch first: its rows and quarantined entries take it as their default.
      await c.query(TAKE_BATCH_SQL);
      let inserted = 0;
      let rollup: unknown[][] = rollupArrays(t, 0, () => []);
      if (n > 0 && path === 'copy') {
        await copy(c, copyEntriesSql(t), entriesCopyText(t, key, b));
        inserted = n;
        rollup = rollupArrays(t, n, (i) => [hourStart(b.timestamp[i]!), ...t.rollup.fromBatch(b, i)]);
        await storeTerms(c, t.source, key.zone, batchTermColumns(t.source, b));
      } else if (n > 0) {
        await c.query(createStageSql(t));
        await copy(c, copyStageSql(t), stageCopyText(t, b));
        const { rows } = await c.query<Record<string, Value>>(mergeStageSql(t), [key.zone, key.day]);
        inserted = rows.length;
        const { keys, empty } = t.rollup;
        rollup = rollupArrays(t, inserted, (i) => [
          hourStart(rows[i]!.timestamp as number),
          ...keys.map((k, j) => rollupValue(rows[i]![k], empty[j]!)),
        ]);
        await storeTerms(c, t.source, key.zone, returnedTermColumns(t.source, rows));
      }
      const q = quarantineArrays(b);
      // A part of a page adds the counts it is given (store.ts PageInput.counts).
      const counts = pageCounts(page, stats.malformed);
      const { rows } = await c.query<{ held: number; kept: number }>(pageSql(t), [
        key.source,
        key.zone,
        key.day,
        owner,
        page.nextToken,
        page.pages,
        counts.entries,
        inserted,
        counts.malformed,
        counts.quarantined,
        stats.firstTs,
        stats.lastTs,
        now + leaseMs,
        now,
        page.page,
        ...rollup,
        ...q,
      ]);
      const { held, kept } = rows[0]!;
      // Another run holds the day now: nothing of this page is kept.
      if (held !== 1) return new Rollback<PageStored | LeaseLost>({ kind: 'lease-lost' });
      return {
        kind: 'stored',
        inserted,
        ...stats,
        malformed: counts.malformed,
        quarantineInserted: kept,
      } satisfies PageStored;
    });
  }
}

async function copy(c: pg.PoolClient, sql: string, text: string): Promise<void> {
  await pipeline(Readable.from([Buffer.from(text)]), c.query(copyFrom(sql)));
}

/** malformed, firstTs, lastTs of a batch (every row, new or not, as the SQLite store counts them). */
export function batchStats(b: AnyBatch): Omit<StoreResult, 'inserted'> {
  let malformed = 0;
  let firstTs: number | null = null;
  let lastTs: number | null = null;
  for (let i = 0; i < b.logId.length; i++) {
    const ts = b.timestamp[i]!;
    if (b.parseError[i] !== null) malformed++;
    if (firstTs === null || ts < firstTs) firstTs = ts;
    if (lastTs === null || ts > lastTs) lastTs = ts;
  }
  return { malformed, firstTs, lastTs };
}

/** The batch's column arrays, in the table's column order. */
function columnArrays(t: EntryTable, b: AnyBatch): Array<ReadonlyArray<string | number | null>> {
  const byField = b as unknown as Record<string, Array<string | number | null>>;
  return t.fields.map((f) => byField[f]!);
}

/** COPY text of the entry table's rows: zone, log_date, then the entry columns. */
function entriesCopyText(t: EntryTable, key: DayKey, b: AnyBatch): string {
  const prefix = `${key.zone}\t${copyField(key.day)}`;
  const cols = columnArrays(t, b);
  let text = '';
  for (let i = 0; i < b.logId.length; i++) {
    text += prefix;
    for (const col of cols) text += '\t' + copyField(col[i]!);
    text += '\n';
  }
  return text;
}

/** COPY text of the staging table's rows: the entry columns. */
function stageCopyText(t: EntryTable, b: AnyBatch): string {
  const cols = columnArrays(t, b);
  let text = '';
  for (let i = 0; i < b.logId.length; i++) {
    for (let c = 0; c < cols.length; c++) text += (c === 0 ? '' : '\t') + copyField(cols[c]![i]!);
    text += '\n';
  }
  return text;
}

/** The rollup counts of `n` new rows whose parts (hour, then each key) `partsOf` gives, as arrays. */
function rollupArrays(t: EntryTable, n: number, partsOf: (i: number) => Value[]): unknown[][] {
  const counter = new RollupCounter<unknown[]>();
  for (let i = 0; i < n; i++) {
    const parts = partsOf(i);
    // U+0000 cannot be in a row a store holds (storable.ts), so it separates the parts unambiguously.
    counter.add(parts.join('\u0000'), parts);
  }
  const arrays: unknown[][] = [[], ...t.rollup.keys.map(() => []), []];
  for (const { parts, count } of counter.entries()) {
    parts.forEach((v, k) => arrays[k]!.push(v));
    arrays[parts.length]!.push(count);
  }
  return arrays;
}

/** The rejected entries as arrays: raw, raw_hash (SHA-256, hex), reason, position. */
function quarantineArrays(b: AnyBatch): unknown[][] {
  const raw: string[] = [];
  const hash: string[] = [];
  const reason: string[] = [];
  const position: number[] = [];
  for (const r of b.rejected) {
    raw.push(r.raw);
    hash.push(createHash('sha256').update(r.raw).digest('hex'));
    reason.push(storableText(r.reason));
    position.push(r.position);
  }
  return [raw, hash, reason, position];
}
