// The day partitions on the server: made ahead of the rows that need them, and dropped by retention.
// Both take the parent table's lock, so they run in short transactions of their own (never inside a
// page's, where two writers making partitions could deadlock), one process at a time (an advisory lock).
import type pg from 'pg';
import type { Day } from '../../time/utc-day.js';
import {
  ENTRY_PARENTS,
  QUARANTINE_PARENT,
  parsePartition,
  partitionsOfDays,
  retentionPlan,
  type Partition,
} from './partition-plan.js';
import { transaction } from './transaction.js';

/** pg_advisory_xact_lock key of partition changes ('edgelog partitions'). */
const PARTITION_LOCK = 0x65_64_67_70;

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
    /** How long DDL waits for the parent's lock before it fails (and is tried again later). */
    private readonly lockTimeoutMs = 10_000,
  ) {}

  /** Makes the partitions of `days` that do not exist yet. */
  async ensureDays(days: readonly Day[]): Promise<void> {
    const missing = partitionsOfDays(days).filter((p) => !this.known.has(p.name));
    if (missing.length === 0) return;
    await transaction(this.pool, async (c) => {
      await this.lock(c);
      for (const p of missing) {
        await c.query(
          `CREATE TABLE IF NOT EXISTS ${p.name} PARTITION OF ${p.parent} FOR VALUES FROM (${p.from}) TO (${p.to})`,
        );
      }
    });
    for (const p of missing) this.known.add(p.name);
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
   * Retention at `beforeMs`: drops every partition whose rows all precede it, and deletes the rows before
   * it from the partitions it falls inside (none when it is a day's start, as retention's cutoffs are).
   */
  async prune(beforeMs: number): Promise<DroppedPartitions> {
    return transaction(this.pool, async (c) => {
      await this.lock(c);
      const plan = retentionPlan(await this.list(c), beforeMs);
      const rows: Record<string, number> = {};
      const add = (parent: string, n: number) => (rows[parent] = (rows[parent] ?? 0) + n);
      for (const p of plan.trim) {
        const r = await c.query(`DELETE FROM ${p.name} WHERE timestamp < $1`, [beforeMs]);
        add(p.parent, r.rowCount ?? 0);
      }
      for (const p of plan.drop) {
        const { rows: counted } = await c.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${p.name}`);
        add(p.parent, counted[0]!.n);
        await c.query(`DROP TABLE ${p.name}`);
        this.known.delete(p.name);
      }
      return { rows, dropped: plan.drop.map((p) => p.name) };
    });
  }

  /** One process at a time; then the DDL waits at most lockTimeoutMs for the tables' locks. */
  private async lock(c: pg.ClientBase): Promise<void> {
    await c.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
    await c.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(this.lockTimeoutMs))}`);
  }
}
