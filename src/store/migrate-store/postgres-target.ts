// The PostgreSQL archive a migration copies into: reached and migrated first, held by one migration at a
// time (a session advisory lock), and written a batch per transaction, so a run killed at any point
// leaves whole batches only, and the next run skips them.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { MigrateStoreError } from '../../errors/index.js';
import { redact } from '../../redact.js';
import type { Day } from '../../time/utc-day.js';
import { displayDatabaseUrl, openPool, type PostgresOptions } from '../postgres/connection.js';
import { migratePostgres } from '../postgres/migrate.js';
import { daysOf } from '../postgres/partition-plan.js';
import { Partitions } from '../postgres/partitions.js';
import { sqlState, transaction, UNIQUE_VIOLATION } from '../postgres/transaction.js';
import { copyDirectSql, copyStageSql, createStageSql, mergeSql } from './copy-sql.js';
import { mergeLedgerBatch } from './ledger-merge.js';
import type { CopyColumns, TableSpec, TargetColumn, Total } from './tables.js';
import { groupKey } from './verify.js';

/** pg_try_advisory_lock key of a migration into the archive ('edgelog migrate-store'). */
const MIGRATE_STORE_LOCK = 0x65_64_67_73;

/** How a batch went in: straight into the table, or through the staging table. */
export type CopyPath = 'direct' | 'merge';

export interface BatchWritten {
  path: CopyPath;
  inserted: number;
  updated: number;
}

export interface LiveLease {
  source: string;
  zone_id: number;
  log_date: string;
  lease_owner: string;
  lease_until: number;
}

export interface PostgresTarget {
  /** The URL without its password. */
  readonly location: string;
  /** The table's columns that take values (not generated), with their types. */
  columns(table: string): Promise<TargetColumn[]>;
  /** Ledger rows whose lease is live at `now` (a worker is writing), up to 5, and how many in all. */
  liveLeases(now: number): Promise<{ count: number; some: LiveLease[] }>;
  /**
   * Writes one batch in one transaction. `direct` (entry tables) COPYs into the table and falls back to
   * the merge when a row is there already.
   */
  write(
    spec: TableSpec,
    cols: CopyColumns,
    text: string,
    rows: RowsView,
    path: CopyPath,
  ): Promise<BatchWritten>;
  /** Sets the target's write batches to go on after `last` (the source's last batch). */
  continueBatches(last: bigint): Promise<void>;
  /** Rows (count) or a rollup's entries (sum of count) by the groups `groups` (SQL expressions). */
  groupTotals(table: string, groups: readonly string[], total: Total): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/** What the writer reads of a batch besides its COPY text: day partitions and rollup counts. */
export interface RowsView {
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>;
  /** Index of each column by name. */
  index: ReadonlyMap<string, number>;
}

/** Checks the URL, reaches the server, migrates it, and takes the migration lock. */
export async function openPostgresTarget(opts: PostgresOptions): Promise<PostgresTarget> {
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    throw new MigrateStoreError('--to must be a URL: postgres://user@host:port/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new MigrateStoreError(
      `--to must be a postgres:// URL, not ${url.protocol}// (an SQLite file goes in --from)`,
    );
  }
  const location = displayDatabaseUrl(opts.url);
  const pool = openPool({ connectionTimeoutMs: 10_000, ...opts, max: 3 }, () => {});
  let lockClient: pg.PoolClient | undefined;
  try {
    try {
      lockClient = await pool.connect();
    } catch (cause) {
      throw new MigrateStoreError(
        `cannot reach the PostgreSQL archive ${location}: ${redact((cause as Error).message)}`,
        {
          retryable: true,
          cause,
        },
      );
    }
    const { rows } = await lockClient.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [
      MIGRATE_STORE_LOCK,
    ]);
    if (!rows[0]!.held) {
      throw new MigrateStoreError(
        `another edgelog migrate-store is copying into ${location}: wait for it to end, then run this again`,
      );
    }
    const results = await migratePostgres(pool);
    const bad = results.find((r) => r.status === 'failed' || r.status === 'changed-after-apply');
    if (bad) {
      throw new MigrateStoreError(
        `cannot migrate the PostgreSQL archive ${location}: ${bad.name} ${bad.status}${bad.error ? `: ${redact(bad.error)}` : ''}`,
      );
    }
  } catch (err) {
    lockClient?.release(true);
    await pool.end().catch(() => {});
    throw err;
  }
  const held = lockClient;
  const partitions = new Partitions(pool);

  const ensurePartitions = async (spec: TableSpec, view: RowsView) => {
    if (spec.entry) {
      const ts = view.index.get('timestamp')!;
      await partitions.ensureDays(daysOf(view.rows.map((r) => r[ts] as number)), []);
    } else if (spec.partitionDay) {
      const col = view.index.get(spec.partitionDay)!;
      const days = [...new Set(view.rows.map((r) => r[col] as string))];
      const bad = days.find((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d));
      if (bad !== undefined)
        throw new MigrateStoreError(`${spec.name}: ${spec.partitionDay} '${bad}' is not a UTC day`);
      await partitions.ensureDays([], days as Day[]);
    }
  };

  const merge = (spec: TableSpec, cols: CopyColumns, text: string) =>
    transaction(pool, async (c) => {
      await c.query(createStageSql(spec, cols));
      await copy(c, copyStageSql(spec, cols), text);
      const { rows } = await c.query<{ inserted: number; updated: number }>(mergeSql(spec, cols));
      return {
        path: 'merge' as const,
        inserted: Number(rows[0]!.inserted),
        updated: Number(rows[0]!.updated),
      };
    });

  // The rollups and term counts are copied as rows of their own (tables.ts), not counted from these.
  const direct = (spec: TableSpec, cols: CopyColumns, text: string, view: RowsView) =>
    transaction(pool, async (c) => {
      await copy(c, copyDirectSql(spec, cols), text);
      return { path: 'direct' as const, inserted: view.rows.length, updated: 0 };
    });

  return {
    location,
    async columns(table) {
      const { rows } = await pool.query<TargetColumn>(
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
         WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
         ORDER BY attnum`,
        [table],
      );
      return rows;
    },
    async liveLeases(now) {
      const { rows } = await pool.query<LiveLease & { total: number }>(
        `SELECT source, zone_id, log_date, lease_owner, lease_until, count(*) OVER ()::bigint AS total
         FROM ingest_ledger WHERE lease_owner IS NOT NULL AND lease_until > $1
         ORDER BY lease_until DESC LIMIT 5`,
        [now],
      );
      return { count: rows[0]?.total ?? 0, some: rows.map(({ total: _total, ...lease }) => lease) };
    },
    async write(spec, cols, text, view, path) {
      if (spec.conflict.kind === 'ledger') {
        const written = await transaction(pool, (c) => mergeLedgerBatch(c, spec, cols, view));
        return { path: 'merge', ...written };
      }
      await ensurePartitions(spec, view);
      if (path === 'direct' && spec.entry) {
        try {
          return await direct(spec, cols, text, view);
        } catch (err) {
          // Some row is there already: the COPY stored nothing, and the merge skips what is there.
          if (sqlState(err) !== UNIQUE_VIOLATION) throw err;
        }
      }
      return merge(spec, cols, text);
    },
    async continueBatches(last) {
      // The history goes by the source's batch numbers: the target's next ones come after them all.
      await pool.query(
        `SELECT setval('write_batch_seq', greatest($1::bigint, (SELECT last_value FROM write_batch_seq)), true)
         WHERE $1::bigint > 0`,
        [String(last)],
      );
    },
    async groupTotals(table, groups, total) {
      const list = groups.join(', ');
      const { rows } = await pool.query<unknown[]>({
        text: `SELECT ${list}, ${total === 'rows' ? 'count(*)' : 'sum(count)::bigint'} FROM ${table} GROUP BY ${list}`,
        rowMode: 'array',
      });
      return new Map(rows.map((r) => [groupKey(r.slice(0, -1)), Number(r.at(-1))]));
    },
    async close() {
      await held.query('SELECT pg_advisory_unlock($1)', [MIGRATE_STORE_LOCK]).catch(() => {});
      held.release();
      await pool.end();
    },
  };
}

async function copy(c: pg.PoolClient, sql: string, text: string): Promise<void> {
  await pipeline(Readable.from([Buffer.from(text)]), c.query(copyFrom(sql)));
}
