// storePage on PostgreSQL, measured against the rate at which the same rows COPY into an unindexed
// table (the yardstick), same run, same machine:
//
//   npx tsx bench/postgres-store.ts [--pages 40] [--rounds 3] [--sync-off] [--url postgres://…/postgres]
//
// - new pages: every row new (the copy path of src/store/postgres/page-writer.ts);
// - the same pages again: every row archived already (a day fetched again; the merge path);
// - half-new pages: each page overlaps the one before by half (the merge path, inserting).
// A database `edgelog_bench_<random>` is created and dropped.
import type pg from 'pg';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { shieldBatch, shieldRowAt, type ShieldBatch } from '../src/store/rows.js';
import type { ArchiveStore, DayKey } from '../src/store/store.js';
import { adminUrlArg, argOf } from './args.js';
import { baselineClient, BenchDatabases, measureCopyLimit } from './postgres-limit.js';
import { BENCH_DAY, parsePage, shieldPageTexts } from './rows.js';

const PAGES = Number(argOf('pages', '40'));
const ROUNDS = Number(argOf('rounds', '3'));
const ADMIN_URL = adminUrlArg();
const LEASE = 600_000;
const SYNC = !process.argv.includes('--sync-off');

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
  const databases = new BenchDatabases(ADMIN_URL);
  const url = await databases.create();
  const now = Date.parse(`${BENCH_DAY}T12:00:00Z`);
  let store: ArchiveStore | undefined;
  let raw: pg.Client | undefined;
  try {
    store = await openPostgresStore({ url, max: 4, now: () => now, synchronousCommit: SYNC });
    raw = await baselineClient(url, { synchronousCommit: SYNC });
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
    const best = new Map<string, number>();
    const baseline = 'COPY into an unindexed table (baseline)';
    const time = async (name: string, n: number, work: () => Promise<number>, expected: number) => {
      const t0 = performance.now();
      const got = await work();
      const ms = performance.now() - t0;
      if (got !== expected) throw new Error(`${name}: ${got} rows, expected ${expected}`);
      best.set(name, Math.max(best.get(name) ?? 0, n / (ms / 1000)));
    };
    for (let round = 0; round < ROUNDS; round++) {
      const copyRate = await measureCopyLimit(raw, batches);
      best.set(baseline, Math.max(best.get(baseline) ?? 0, copyRate));
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
    const baselineRate = best.get(baseline)!;
    for (const [name, rate] of best) {
      console.log(
        `${rate.toFixed(0).padStart(9)} rows/s  ${(rate / baselineRate).toFixed(2)}× baseline  ${name}`,
      );
    }
  } finally {
    await store?.close();
    await raw?.end().catch(() => {});
    await databases.dropAll();
  }
}

await main();
