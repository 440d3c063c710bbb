// The PostgreSQL write ceiling (the issue's yardstick): the same parsed Shield rows COPY'd into an
// unindexed table, one transaction per page; and the bench's own databases, made and dropped.
// Used by `npm run bench -- --store postgres` and bench/postgres-store.ts.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyRows } from '../src/store/postgres/copy-text.js';
import { SHIELD_FIELDS, type ShieldBatch } from '../src/store/rows.js';

export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

const COLUMNS = SHIELD_FIELDS.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
const BASELINE_TABLE = `CREATE TABLE IF NOT EXISTS copy_baseline (${COLUMNS.map((c) => `${c} ${c === 'timestamp' ? 'bigint' : 'text'}`).join(', ')})`;

/** Databases `edgelog_bench_<random>` made through `adminUrl` (a role that may CREATE DATABASE). */
export class BenchDatabases {
  private readonly made: string[] = [];
  private admin: pg.Client | undefined;

  constructor(private readonly adminUrl: string) {}

  /** A new empty database; returns its URL. */
  async create(): Promise<string> {
    if (!this.admin) {
      this.admin = new pg.Client({ connectionString: this.adminUrl });
      await this.admin.connect();
    }
    const name = `edgelog_bench_${randomBytes(4).toString('hex')}`;
    await this.admin.query(`CREATE DATABASE ${name}`);
    this.made.push(name);
    const url = new URL(this.adminUrl);
    url.pathname = `/${name}`;
    return url.href;
  }

  /** Drops every database made (a worker still connected is disconnected). */
  async dropAll(): Promise<void> {
    if (!this.admin) return;
    try {
      for (const name of this.made.splice(0)) {
        await this.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    } finally {
      await this.admin.end().catch(() => {});
      this.admin = undefined;
    }
  }
}

/** A connection for the baseline, with its table (`copy_baseline`) made and emptied. */
export async function baselineClient(url: string, opts: { synchronousCommit?: boolean } = {}) {
  const client = new pg.Client({
    connectionString: url,
    ...(opts.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
  });
  await client.connect();
  await client.query(BASELINE_TABLE);
  return client;
}

/**
 * Rows per second COPY'd into `copy_baseline` (no key, no index, no rollup), one transaction per page,
 * the COPY text built from the batches inside the timed loop (as storePage builds its own).
 */
export async function measureCopyLimit(client: pg.Client, pages: readonly ShieldBatch[]): Promise<number> {
  await client.query('TRUNCATE copy_baseline');
  let rows = 0;
  const started = performance.now();
  for (const b of pages) {
    const text = copyRows(
      b.logId.length,
      SHIELD_FIELDS.length,
      (i, c) => b[SHIELD_FIELDS[c]!][i] as string | number | null,
    );
    await client.query('BEGIN');
    await pipeline(
      Readable.from([Buffer.from(text)]),
      client.query(copyFrom('COPY copy_baseline FROM STDIN')),
    );
    await client.query('COMMIT');
    rows += b.logId.length;
    await yieldToLoop(); // as between pages in the engine
  }
  return rows / ((performance.now() - started) / 1000);
}
