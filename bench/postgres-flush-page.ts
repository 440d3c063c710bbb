// `npx tsx bench/postgres-flush-page.ts`: a PostgreSQL flush page's time right after a big ingest, before
// autovacuum has analyzed the table (a database of its own, made and dropped): 200 pages of 1,000 Shield
// entries stored, then the first ten flush pages of the day timed. With stale statistics the planner once
// sorted the whole batch range for each page (~550 ms a page at 200,000 rows, growing with the day);
// the page statement now runs with sorts priced out (postgres/flush.ts), ~8 ms (2026-11-29).
import pg from 'pg';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import type { FlushCursor } from '../src/store/history-store.js';
import { DAY, NOW, shieldPage, shieldRows } from '../test/postgres/conformance.js';
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
const name = `edgelog_stale_${process.pid}`;
await admin.query(`CREATE DATABASE ${name}`);
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
try {
  const store = await openPostgresStore({ url, max: 4, now: () => NOW });
  const key = { source: 'shield' as const, zone: 7, day: DAY };
  await store.ledger.claim(key, 'w1', NOW, 600_000, true);
  const t0 = performance.now();
  for (let p = 0; p < 200; p++)
    await store.storePage(
      key,
      'w1',
      shieldPage(shieldRows(1000, p * 1000), p + 1, p + 1 < 200 ? `t${p + 2}` : null),
      NOW,
      600_000,
    );
  console.log('stored 200k in', Math.round(performance.now() - t0), 'ms');
  const flush = store.history.flush;
  const horizon = await flush.horizon();
  let after: FlushCursor | null = null;
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const page = await flush.page('shield_event_logs', { zone: 7, day: DAY }, 1n, horizon, after, 1000);
    times.push(Math.round(performance.now() - t));
    after = page.last;
  }
  console.log('first 10 pages, ms:', times.join(' '));
  await store.close();
} finally {
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
}
