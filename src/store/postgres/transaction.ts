// One unit of work on one pooled connection: BEGIN … COMMIT, or ROLLBACK when anything throws.
import type pg from 'pg';

export type Client = pg.PoolClient;

export interface TransactionOptions {
  /** `READ ONLY` and an isolation level, as SQL after BEGIN. @defaultValue '' (read-write, READ COMMITTED) */
  mode?: string;
}

/**
 * Runs `work` in a transaction on a connection of `pool`. `work` may return `rollback(value)` to end the
 * transaction without committing (a page whose lease was lost). A connection whose ROLLBACK failed is
 * discarded instead of going back to the pool.
 */
export async function transaction<T>(
  pool: pg.Pool,
  work: (client: Client) => Promise<T | Rollback<T>>,
  opts: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection that dies while checked out emits 'error' on its client (its query fails too); with no
  // listener that event would crash the process.
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  try {
    await client.query(opts.mode ? `BEGIN ${opts.mode}` : 'BEGIN');
    const result = await work(client);
    if (result instanceof Rollback) {
      await client.query('ROLLBACK');
      return result.value;
    }
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** Ends a transaction without committing, returning `value`. */
export class Rollback<T> {
  constructor(readonly value: T) {}
}

/** The SQLSTATE of a server error, or undefined. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const UNIQUE_VIOLATION = '23505';
/** A row for which no partition exists (dropped by retention meanwhile). */
export const NO_PARTITION = '23514';
