// storePage on PostgreSQL, measured against the rate at which the same rows COPY into an unindexed
// table (the issue's yardstick), same run, same machine:
//
//   npx tsx bench/postgres-store.ts [--pages 40] [--rounds 3] [--sync-off] [--url postgres://…/postgres]
//
// - new pages: every row new (the copy path of src/store/postgres/page-writer.ts);
// - the same pages again: every row archived already (a day fetched again; the merge path);
// - half-new pages: each page overlaps the one before by half (the merge path, inserting).
// A database `edgelog_bench_<random>` is created and dropped.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyRows } from '../src/store/postgres/copy-text.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { SHIELD_FIELDS, shieldBatch, shieldRowAt, type ShieldBatch } from '../src/store/rows.js';
import type { ArchiveStore, DayKey } from '../src/store/store.js';
import { BENCH_DAY, parsePage, shieldPageTexts } from './rows.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : dflt;
};
const PAGES = Number(arg('pages', '40'));
const ROUNDS = Number(arg('rounds', '3'));
const ADMIN_URL = arg(
  'url',
  process.env.EDGELOG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
const LEASE = 600_000;
const SYNC = !args.includes('--sync-off');

const COLUMNS = SHIELD_FIELDS.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/** Pages that overlap the one before by half: rows [i·n/2, i·n/2 + n). */
function halfNewPages(batches: ShieldBatch[]): ShieldBatch[] {
  const rows = batches.flatMap((b) => b.logId.map((_, i) => shieldRowAt(b, i)));
  const n = batches[0]!.logId.length;
  const out: ShieldBatch[] = [];
  for (let start = 0; start + n <= rows.length; start += n / 2)
    out.push(shieldBatch(rows.slice(start, start + n)));
  return out;
}

async function main(): Promise<void> {
  const dbName = `edgelog_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const now = Date.parse(`${BENCH_DAY}T12:00:00Z`);
  let store: ArchiveStore | undefined;
  const raw = new pg.Client({
    connectionString: url.href,
    ...(SYNC ? {} : { options: '-c synchronous_commit=off' }),
  });
  try {
    store = await openPostgresStore({ url: url.href, max: 4, now: () => now, synchronousCommit: SYNC });
    await raw.connect();
    await raw.query(
      `CREATE TABLE copy_baseline (${COLUMNS.map((c) => `${c} ${c === 'timestamp' ? 'bigint' : 'text'}`).join(', ')})`,
    );
    const batches = shieldPageTexts(PAGES, 1000).map(parsePage);
    const half = halfNewPages(batches);
    const rows = batches.reduce((n, b) => n + b.logId.length, 0);
    console.log(
      `${PAGES} Shield pages of 1000 rows; best of ${ROUNDS} rounds; synchronous_commit ${SYNC ? 'on' : 'off'}`,
    );

    let zone = 0;
    const key = (): DayKey => ({ source: 'shield', zone: ++zone, day: BENCH_DAY });
    const storeAll = async (k: DayKey, pages: ShieldBatch[]) => {
      let inserted = 0;
      for (let p = 0; p < pages.length; p++) {
        const r = await store!.storePage(
          k,
          'bench',
          { source: 'shield', batch: pages[p]!, page: p + 1, nextToken: `t${p + 2}`, pages: 1 },
          now,
          LEASE,
        );
        if (r.kind !== 'stored') throw new Error('lease lost');
        inserted += r.inserted;
      }
      return inserted;
    };
    const text = batches.map((b) =>
      copyRows(
        b.logId.length,
        SHIELD_FIELDS.length,
        (i, c) => b[SHIELD_FIELDS[c]!][i] as string | number | null,
      ),
    );

    const best = new Map<string, number>();
    const time = async (name: string, n: number, work: () => Promise<number>, expected: number) => {
      const t0 = performance.now();
      const got = await work();
      const ms = performance.now() - t0;
      if (got !== expected) throw new Error(`${name}: ${got} rows, expected ${expected}`);
      best.set(name, Math.max(best.get(name) ?? 0, n / (ms / 1000)));
    };
    for (let round = 0; round < ROUNDS; round++) {
      await raw.query('TRUNCATE copy_baseline');
      await time(
        'COPY into an unindexed table (baseline)',
        rows,
        async () => {
          for (const t of text) {
            await raw.query('BEGIN');
            await pipeline(
              Readable.from([Buffer.from(t)]),
              raw.query(copyFrom(`COPY copy_baseline FROM STDIN`)),
            );
            await raw.query('COMMIT');
          }
          return rows;
        },
        rows,
      );
      const k = key();
      await store.ledger.claim(k, 'bench', now, LEASE, true);
      await time('storePage, new rows (copy path)', rows, () => storeAll(k, batches), rows);
      await time(
        'storePage, the same pages again (merge path, nothing new)',
        rows,
        () => storeAll(k, batches),
        0,
      );
      const h = key();
      await store.ledger.claim(h, 'bench', now, LEASE, true);
      const halfRows = half.length * 1000;
      await time('storePage, pages half new (merge path)', halfRows, () => storeAll(h, half), rows);
    }
    const baseline = best.get('COPY into an unindexed table (baseline)')!;
    for (const [name, rate] of best) {
      console.log(
        `${rate.toFixed(0).padStart(9)} rows/s  ${(rate / baseline).toFixed(2)}× baseline  ${name}`,
      );
    }
  } finally {
    await store?.close();
    await raw.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
