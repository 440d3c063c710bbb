// The day partitions on the server: made ahead of the rows that need them, and dropped by retention.
// Both run in short transactions of their own (never inside a page's), one process at a time (an
// advisory lock). A new partition is made as a table of its own and then attached, which takes only a
// SHARE UPDATE EXCLUSIVE lock on the parent: writers and readers go on meanwhile (CREATE TABLE …
// PARTITION OF would wait for every transaction on the parent, and hold up every new one behind it).
// Dropping one takes the parent's ACCESS EXCLUSIVE lock: retention waits at most `dropLockTimeoutMs`
// for it (writers queue behind it that long at most) and otherwise fails, to be tried again later.
// The advisory lock itself is waited for no longer than that either: any session may take the key
// (pg_advisory_lock needs no privilege), and one that holds it must not stall every worker.
import type pg from 'pg';
import { EdgelogError } from '../../errors/index.js';
import { dayOf, type Day } from '../../time/utc-day.js';
import {
  ENTRY_PARENTS,
  QUARANTINE_PARENT,
  parsePartition,
  partitionsOfDays,
  retentionPlan,
  type Partition,
} from './partition-plan.js';
import { NO_PARTITION, sqlState, transaction } from './transaction.js';

/** pg_advisory_xact_lock key of partition changes ('edgelog partitions'). */
export const PARTITION_LOCK = 0x65_64_67_70;

export interface DroppedPartitions {
  /** Rows removed per parent table. */
  rows: Record<string, number>;
  dropped: string[];
}

export class Partitions {
  /** Partitions known to exist (made or seen by this process). */
  private readonly known = new Set<string>();

  constructor(
    private readonly pool: pg.Pool,
    /** How long attaching a partition waits for its locks. */
    private readonly attachLockTimeoutMs = 10_000,
    /** How long dropping a partition waits for the parent's lock. */
    private readonly dropLockTimeoutMs = 2_000,
  ) {}

  /**
   * Makes the partitions that do not exist yet: the entry tables' of `days`, and quarantined_entries' of
   * `quarantineDays` (the fetched days; by default `days` too).
   */
  async ensureDays(days: readonly Day[], quarantineDays: readonly Day[] = days): Promise<void> {
    const wanted = partitionsOfDays([...new Set(days)], [...new Set(quarantineDays)]);
    const missing = wanted.filter((p) => !this.known.has(p.name));
    if (missing.length === 0) return;
    await transaction(this.pool, async (c) => {
      await this.lock(c, this.attachLockTimeoutMs);
      const { rows } = await c.query<{ name: string }>(
        'SELECT n AS name FROM unnest($1::text[]) AS n WHERE to_regclass(n) IS NOT NULL',
        [missing.map((p) => p.name)],
      );
      const existing = new Set(rows.map((r) => r.name));
      for (const p of missing.filter((m) => !existing.has(m.name))) {
        // The parent's columns, generated columns, NOT NULL and CHECK constraints (attaching needs them);
        // the unique key's index is made when it is attached. The table is empty, so the bounds are
        // checked at once.
        await c.query(
          `CREATE TABLE ${p.name} (LIKE ${p.parent} INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS)`,
        );
        await c.query(
          `ALTER TABLE ${p.parent} ATTACH PARTITION ${p.name} FOR VALUES FROM (${p.from}) TO (${p.to})`,
        );
      }
    });
    for (const p of missing) this.known.add(p.name);
  }

  /**
   * Runs `write` (rows into the partitions of `days` and `quarantineDays`, as ensureDays) once they
   * exist; when one this process knew of was dropped meanwhile (retention or pruning in another
   * process), makes it again and writes again.
   */
  async writing<T>(
    days: readonly Day[],
    quarantineDays: readonly Day[],
    write: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.ensureDays(days, quarantineDays);
      try {
        return await write();
      } catch (err) {
        if (sqlState(err) !== NO_PARTITION || attempt >= 2) throw err;
        this.forget();
      }
    }
  }

  /** Forgets what this process knew (a partition was dropped elsewhere): the next ensure looks again. */
  forget(): void {
    this.known.clear();
  }

  /** The day partitions that exist now. */
  async list(c: pg.ClientBase | pg.Pool = this.pool): Promise<Partition[]> {
    const parents = [...ENTRY_PARENTS, QUARANTINE_PARENT];
    const { rows } = await c.query<{ name: string }>(
      `SELECT child.relname AS name FROM pg_inherits i
       JOIN pg_class child ON child.oid = i.inhrelid
       WHERE i.inhparent = ANY ($1::regclass[])`,
      [parents],
    );
    return rows.map((r) => parsePartition(r.name)).filter((p): p is Partition => p !== null);
  }

  /**
   * Retention at `beforeMs` (a day's start): the entries fetched for an earlier day go (log_date). A
   * partition of earlier timestamps is dropped whole when none of its rows was fetched for a later day
   * (the usual case), else those are kept and the others deleted; the next day's partition loses the
   * rows fetched for an earlier day. The quarantine is partitioned by log_date: dropped whole.
   */
  async prune(beforeMs: number): Promise<DroppedPartitions> {
    const beforeDay = dayOf(beforeMs);
    return transaction(this.pool, async (c) => {
      await this.lock(c, this.dropLockTimeoutMs);
      const plan = retentionPlan(await this.list(c), beforeMs);
      const rows: Record<string, number> = {};
      const add = (parent: string, n: number) => (rows[parent] = (rows[parent] ?? 0) + n);
      for (const p of plan.trim) {
        const r = await c.query(`DELETE FROM ${p.name} WHERE log_date < $1`, [beforeDay]);
        add(p.parent, r.rowCount ?? 0);
      }
      const dropped: Partition[] = [];
      for (const p of plan.drop) {
        if (p.parent !== QUARANTINE_PARENT) {
          const { rows: later } = await c.query<{ later: boolean }>(
            `SELECT EXISTS (SELECT 1 FROM ${p.name} WHERE log_date >= $1) AS later`,
            [beforeDay],
          );
          if (later[0]!.later) {
            const r = await c.query(`DELETE FROM ${p.name} WHERE log_date < $1`, [beforeDay]);
            add(p.parent, r.rowCount ?? 0);
            continue;
          }
        }
        dropped.push(p);
        const { rows: counted } = await c.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${p.name}`);
        add(p.parent, counted[0]!.n);
        await c.query(`DROP TABLE ${p.name}`);
        this.known.delete(p.name);
      }
      return { rows, dropped: dropped.map((p) => p.name) };
    });
  }

  /**
   * One process at a time, the wait bounded: lock_timeout (set first, it bounds advisory locks too)
   * stops the wait for the advisory lock, and then the DDL's waits for the tables' locks, at `timeoutMs`.
   */
  private async lock(c: pg.ClientBase, timeoutMs: number): Promise<void> {
    const ms = Math.max(1, Math.floor(timeoutMs));
    await c.query(`SET LOCAL lock_timeout = ${ms}`);
    try {
      await c.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
    } catch (err) {
      if (sqlState(err) !== LOCK_NOT_AVAILABLE) throw err;
      throw new EdgelogError(
        `edgelog's partition lock (advisory lock ${PARTITION_LOCK}) was held by another session for over ` +
          `${ms} ms: another worker making or dropping partitions, or a session that took the key ` +
          `(find it: SELECT pid, usename, application_name FROM pg_locks JOIN pg_stat_activity USING (pid) ` +
          `WHERE locktype = 'advisory' AND objid = ${PARTITION_LOCK}); tried again later`,
        { retryable: true, cause: err },
      );
    }
  }
}

/** lock_not_available: lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = '55P03';
