// What the PostgreSQL entry table's extras cost a COPY: the unique key, the identity `id` and the stored
// `time` column (both kept for parity with SQLite's columns). Server CPU per row (read from /proc, so
// the server must run on this machine) and wall-clock rate, best of `--rounds`.
//
//   npx tsx bench/postgres-columns.ts [--pages 40] [--rounds 5] [--url postgres://postgres@127.0.0.1:5432/postgres]
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyRows } from '../src/store/postgres/copy-text.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { SHIELD_FIELDS } from '../src/store/rows.js';
import { adminUrlArg, argOf } from './args.js';
import { processCpuMs } from './machine-cpu.js';
import { BenchDatabases } from './postgres-limit.js';
import { BENCH_DAY, parsePage, shieldPageTexts } from './rows.js';

const PAGES = Number(argOf('pages', '40'));
const ROUNDS = Number(argOf('rounds', '5'));
const ADMIN_URL = adminUrlArg();

async function main(): Promise<void> {
  const databases = new BenchDatabases(ADMIN_URL);
  const url = await databases.create();
  const now = Date.parse(`${BENCH_DAY}T12:00:00Z`);
  const c = new pg.Client({ connectionString: url });
  try {
    await (await openPostgresStore({ url, max: 1, now: () => now })).close(); // migrated, partitioned
    await c.connect();
    const pid = (await c.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p;
    const columns = SHIELD_FIELDS.map((f) => f.replace(/[A-Z]/g, (x) => `_${x.toLowerCase()}`));
    const list = `(shield_zone_id, log_date, ${columns.join(', ')})`;
    await c.query(
      `CREATE TABLE plain (shield_zone_id bigint, log_date text, ${columns.map((x) => `${x} ${x === 'timestamp' ? 'bigint' : 'text'}`).join(', ')})`,
    );
    const batches = shieldPageTexts(PAGES, 1000).map(parsePage);
    const texts = batches.map((b) =>
      copyRows(b.logId.length, columns.length + 2, (i, k) =>
        k === 0 ? 201 : k === 1 ? BENCH_DAY : (b[SHIELD_FIELDS[k - 2]!][i] as string | number | null),
      ),
    );
    const rows = PAGES * 1000;
    const run = async (label: string, table: string) => {
      let cpu = Infinity;
      let wall = Infinity;
      for (let r = 0; r < ROUNDS; r++) {
        await c.query(`TRUNCATE ${table}`);
        const c0 = processCpuMs(pid);
        const t0 = performance.now();
        for (const t of texts) {
          await c.query('BEGIN');
          await pipeline(
            Readable.from([Buffer.from(t)]),
            c.query(copyFrom(`COPY ${table} ${list} FROM STDIN`)),
          );
          await c.query('COMMIT');
        }
        wall = Math.min(wall, performance.now() - t0);
        cpu = Math.min(cpu, processCpuMs(pid) - c0);
      }
      const perRow = ((cpu * 1000) / rows).toFixed(2);
      console.log(
        `${perRow.padStart(6)} server µs/row ${(rows / (wall / 1000)).toFixed(0).padStart(8)} rows/s  ${label}`,
      );
    };
    console.log(`${PAGES} pages of 1000 Shield rows, one COPY and commit per page, best of ${ROUNDS}`);
    await run('unindexed table (the baseline)', 'plain');
    await run('entry table: key, identity id, stored time (as migrated)', 'shield_event_logs');
    await c.query('ALTER TABLE shield_event_logs DROP COLUMN time');
    await run('entry table without time', 'shield_event_logs');
    await c.query(`ALTER TABLE shield_event_logs ADD COLUMN time timestamp
      GENERATED ALWAYS AS (timestamp '1970-01-01' + timestamp * interval '1 millisecond') STORED`);
    await run('entry table with time as a stored timestamp (not text)', 'shield_event_logs');
    await c.query('ALTER TABLE shield_event_logs DROP COLUMN time');
    await c.query('ALTER TABLE shield_event_logs ALTER COLUMN id DROP IDENTITY');
    await c.query('ALTER TABLE shield_event_logs ALTER COLUMN id DROP NOT NULL');
    await run('entry table without time and identity (the key alone)', 'shield_event_logs');
    await run('unindexed table (the baseline, again)', 'plain');
  } finally {
    await c.end().catch(() => {});
    await databases.dropAll();
  }
}

await main();
