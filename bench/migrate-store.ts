// `edgelog migrate-store` measured: a generated SQLite archive of origin entries (≥ 1M rows by default,
// cached between runs) copied into a new PostgreSQL database, beside the rate at which the same rows,
// read from the same file in the same batches, COPY into an unindexed table (no key, no partitions, no
// rollup): the yardstick the issue uses for the store. Then the same copy again (every row there already).
//
//   npx tsx bench/migrate-store.ts [--rows 1000000] [--batch-rows 10000] [--url postgres://…/postgres]
//
// A database `edgelog_bench_<random>` is created and dropped.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { thousands } from '../src/format/table.js';
import { copyText, migrateStore, type MigrateStoreResult } from '../src/store/migrate-store/migrate-store.js';
import { openSqliteSource } from '../src/store/migrate-store/sqlite-source.js';
import { adminUrlArg, argOf } from './args.js';
import { generatedArchive } from './archive.js';
import { BenchDatabases } from './postgres-limit.js';

const ROWS = Number(argOf('rows', '1000000'));
const BATCH = Number(argOf('batch-rows', '10000'));
const ADMIN_URL = adminUrlArg();
const TABLE = 'origin_error_logs';

/** The entry rows, read and turned into COPY text as migrate-store does, COPYed into a bare table. */
async function baseline(file: string, url: string): Promise<{ rows: number; ms: number }> {
  const source = openSqliteSource(file);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = source.columns(TABLE).filter((c) => c !== 'id' && c !== 'time');
    const { rows: types } = await client.query<{ name: string; type: string }>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
       WHERE attrelid = '${TABLE}'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''`,
    );
    const typeOf = new Map(types.map((t) => [t.name, t.type]));
    await client.query(
      `CREATE TABLE copy_baseline (${columns.map((c) => `${c} ${typeOf.get(c)!}`).join(', ')})`,
    );
    const started = performance.now();
    let rows = 0;
    // As migrate-store does: one batch COPYs while the next is read.
    let writing: Promise<void> | undefined;
    const write = async (text: string) => {
      await client.query('BEGIN');
      await pipeline(
        Readable.from([Buffer.from(text)]),
        client.query(copyFrom(`COPY copy_baseline (${columns.join(', ')}) FROM STDIN`)),
      );
      await client.query('COMMIT');
    };
    for await (const batch of source.batches(TABLE, columns, BATCH)) {
      const text = copyText(batch);
      await writing;
      writing = write(text);
      rows += batch.length;
    }
    await writing;
    return { rows, ms: performance.now() - started };
  } finally {
    source.close();
    await client.end();
  }
}

function entryRate(r: MigrateStoreResult): { rows: number; perSecond: number } {
  const rows = r.tables.reduce((n, t) => n + t.read, 0);
  return { rows, perSecond: (rows / r.elapsedMs) * 1000 };
}

async function main(): Promise<void> {
  const file = generatedArchive(join(tmpdir(), 'edgelog-bench'), ROWS, (line) => console.log(line));
  const databases = new BenchDatabases(ADMIN_URL);
  const url = await databases.create();
  try {
    const first = await migrateStore({ from: file, to: url, batchRows: BATCH });
    if (!first.ok) throw new Error(`the copy differs: ${first.mismatches.join('; ')}`);
    const again = await migrateStore({ from: file, to: url, batchRows: BATCH });
    // The bare table in the same (already migrated) database, after the copy: same server state.
    const base = await baseline(file, url);
    const baseRate = (base.rows / base.ms) * 1000;
    const a = entryRate(first);
    const b = entryRate(again);
    console.log(
      `${file}: ${thousands(a.rows)} rows (${thousands(base.rows)} entries), batches of ${thousands(BATCH)}`,
    );
    console.log('                                                   rows/s  ×COPY   seconds');
    const line = (name: string, rate: number, ms: number) =>
      console.log(
        `${name.padEnd(48)} ${thousands(Math.round(rate)).padStart(9)}  ${(rate / baseRate).toFixed(2).padStart(5)}  ${(ms / 1000).toFixed(1).padStart(8)}`,
      );
    line('COPY into an unindexed table (entries only)', baseRate, base.ms);
    line('migrate-store into an empty archive', a.perSecond, first.elapsedMs);
    line('migrate-store again (every row there already)', b.perSecond, again.elapsedMs);
    console.log(
      `second run inserted ${thousands(again.tables.reduce((n, t) => n + t.inserted, 0))} rows; checks ${again.ok ? 'passed' : 'FAILED'}`,
    );
  } finally {
    await databases.dropAll();
  }
}

await main();
