// Which PostgreSQL driver and which bulk-write method edgelog uses: measured here, same machine, same
// rows (Shield pages as the simulator serves them, parsed as ingestion parses them).
//
//   npx tsx bench/postgres-drivers.ts [--pages 40] [--url postgres://postgres@127.0.0.1:5432/postgres]
//
// Each method stores every page in its own transaction with its rollup counts and a ledger update, as
// storePage does; the baseline COPYs the same rows into an unindexed table (no key, no rollup). A
// database `edgelog_bench_<random>` is created and dropped.
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import postgres from 'postgres';
import { readMigrations } from '../src/store/migration-files.js';
import { POSTGRES_MIGRATIONS_DIR } from '../src/store/postgres/migrate.js';
import { copyRows } from '../src/store/postgres/copy-text.js';
import { SHIELD_FIELDS, type ShieldBatch } from '../src/store/rows.js';
import { SHIELD_TABLE } from '../src/store/entry-tables.js';
import { adminUrlArg, argOf } from './args.js';
import { processCpuMs } from './machine-cpu.js';
import { BenchDatabases } from './postgres-limit.js';
import { BENCH_DAY, parsePage, shieldPageTexts } from './rows.js';

const PAGES = Number(argOf('pages', '40'));
const ADMIN_URL = adminUrlArg();
const ZONE = 201;
const ROUNDS = Number(argOf('rounds', '3'));

// The entry columns after the two every row of the bench shares (zone, day), in the store's order.
const COLS = SHIELD_TABLE.columns;
const TYPES = SHIELD_TABLE.types;
const FIELDS = SHIELD_FIELDS;

/** The insert + rollup of one page, from a row source (`unnest` of arrays or the staging table). */
function insertSql(source: string): string {
  return `WITH ins AS (
    INSERT INTO shield_event_logs (shield_zone_id, log_date, ${COLS.join(', ')})
    SELECT ${ZONE}, '${BENCH_DAY}', ${COLS.join(', ')} FROM ${source}
    ON CONFLICT (shield_zone_id, timestamp, log_id) DO NOTHING
    RETURNING timestamp, rule_id, severity, status),
  roll AS (
    INSERT INTO shield_hourly (shield_zone_id, hour, rule_id, severity, status, count)
    SELECT ${ZONE}, timestamp - timestamp % 3600000 AS h, coalesce(rule_id, '') AS r, coalesce(severity, '') AS s,
           coalesce(status, '') AS st, count(*) FROM ins GROUP BY h, r, s, st ORDER BY h, r, s, st
    ON CONFLICT (shield_zone_id, hour, rule_id, severity, status) DO UPDATE SET count = shield_hourly.count + excluded.count)
  SELECT count(*)::int AS n FROM ins`;
}
const UNNEST = `unnest(${TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) AS r(${COLS.join(', ')})`;
const LEDGER = `UPDATE ingest_ledger SET pages = pages + 1, new_entries = new_entries + $1, updated_at = $2
  WHERE source = 'shield' AND zone_id = ${ZONE} AND log_date = '${BENCH_DAY}' AND lease_owner = 'bench'`;

/** The copy path: every row new, so the rollup is counted from the batch and upserted from arrays. */
const DIRECT_COPY = `COPY shield_event_logs (shield_zone_id, log_date, ${COLS.join(', ')}) FROM STDIN`;
const ROLLUP_ARRAYS = `INSERT INTO shield_hourly (shield_zone_id, hour, rule_id, severity, status, count)
  SELECT ${ZONE}, h, r, s, st, n FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS u(h, r, s, st, n)
  ORDER BY h, r, s, st
  ON CONFLICT (shield_zone_id, hour, rule_id, severity, status) DO UPDATE SET count = shield_hourly.count + excluded.count`;
function rollupArrays(b: ShieldBatch): unknown[][] {
  const counts = new Map<string, [number, string, string, string, number]>();
  for (let i = 0; i < b.logId.length; i++) {
    const h = b.timestamp[i]! - (b.timestamp[i]! % 3_600_000);
    const parts = [h, b.ruleId[i] ?? '', b.severity[i] ?? '', b.status[i] ?? ''] as const;
    const k = parts.join('|');
    const slot = counts.get(k);
    if (slot) slot[4]++;
    else counts.set(k, [...parts, 1]);
  }
  const out: unknown[][] = [[], [], [], [], []];
  for (const row of counts.values()) row.forEach((v, i) => out[i]!.push(v));
  return out;
}
const directText = (b: ShieldBatch) =>
  copyRows(b.logId.length, FIELDS.length + 2, (i, c) =>
    c === 0 ? ZONE : c === 1 ? BENCH_DAY : (b[FIELDS[c - 2]!][i] as string | number | null),
  );

const columns = (b: ShieldBatch) => FIELDS.map((f) => b[f] as unknown[]);
const copyText = (b: ShieldBatch) =>
  copyRows(b.logId.length, FIELDS.length, (i, c) => b[FIELDS[c]!][i] as string | number | null);

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Method {
  name: string;
  setup?: () => Promise<void>;
  page: (b: ShieldBatch) => Promise<number>;
}

async function main(): Promise<void> {
  const databases = new BenchDatabases(ADMIN_URL);
  const url = await databases.create();
  const pgc = new pg.Client({ connectionString: url });
  const js = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await pgc.connect();
    for (const m of readMigrations(POSTGRES_MIGRATIONS_DIR)) await pgc.query(m.sql);
    const dayMs = Date.parse(`${BENCH_DAY}T00:00:00Z`);
    await pgc.query(`CREATE TABLE shield_event_logs_bench PARTITION OF shield_event_logs
      FOR VALUES FROM (${dayMs}) TO (${dayMs + 86_400_000})`);
    await pgc.query(`CREATE UNLOGGED TABLE IF NOT EXISTS copy_baseline_unused (x int)`);
    await pgc.query(
      `CREATE TABLE copy_baseline (shield_zone_id bigint, log_date text, ${COLS.map((c, i) => `${c} ${TYPES[i]}`).join(', ')})`,
    );
    await pgc.query(`INSERT INTO ingest_ledger (source, zone_id, log_date, state, lease_owner, lease_until, updated_at)
      VALUES ('shield', ${ZONE}, '${BENCH_DAY}', 'running', 'bench', 0, 0)`);

    const texts = shieldPageTexts(PAGES, 1000);
    const batches = texts.map(parsePage);
    const rows = batches.reduce((n, b) => n + b.logId.length, 0);
    console.log(
      `${PAGES} pages, ${rows} Shield rows; PostgreSQL ${(await pgc.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version}`,
    );

    const stage = `CREATE TEMP TABLE IF NOT EXISTS stage (${COLS.map((c, i) => `${c} ${TYPES[i]}`).join(', ')}) ON COMMIT DELETE ROWS`;
    const baselineCopy = `COPY copy_baseline (${COLS.join(', ')}) FROM STDIN`;
    const stageCopy = `COPY stage (${COLS.join(', ')}) FROM STDIN`;
    const pgCopy = async (sql: string, text: string) => {
      await pipeline(Readable.from([Buffer.from(text)]), pgc.query(copyFrom(sql)));
    };
    const jsCopy = async (tx: postgres.TransactionSql, sql: string, text: string) => {
      const w = await tx.unsafe(sql).writable();
      await pipeline(Readable.from([Buffer.from(text)]), w);
    };

    const methods: Method[] = [
      // (first: the baseline the others are compared with)
      {
        name: 'baseline COPY, unindexed table (pg + pg-copy-streams)',
        page: async (b) => {
          await pgc.query('BEGIN');
          await pgCopy(baselineCopy, copyText(b));
          await pgc.query('COMMIT');
          return b.logId.length;
        },
      },
      {
        name: 'baseline COPY, unindexed table (postgres.js)',
        page: async (b) => {
          await js.begin(async (tx) => jsCopy(tx, baselineCopy, copyText(b)));
          return b.logId.length;
        },
      },
      {
        name: 'COPY straight into the keyed table, rollup from the batch (pg) — the copy path',
        page: async (b) => {
          await pgc.query('BEGIN');
          await pgCopy(DIRECT_COPY, directText(b));
          await pgc.query(ROLLUP_ARRAYS, rollupArrays(b));
          await pgc.query(LEDGER, [b.logId.length, Date.now()]);
          await pgc.query('COMMIT');
          return b.logId.length;
        },
      },
      {
        name: 'COPY straight into the keyed table, rollup from the batch (postgres.js)',
        page: async (b) =>
          js.begin(async (tx) => {
            await jsCopy(tx, DIRECT_COPY, directText(b));
            await tx.unsafe(ROLLUP_ARRAYS, rollupArrays(b) as never);
            await tx.unsafe(LEDGER, [b.logId.length, Date.now()]);
            return b.logId.length;
          }),
      },
      {
        name: 'unnest arrays → INSERT … ON CONFLICT + rollup CTE (pg)',
        page: async (b) => {
          await pgc.query('BEGIN');
          const r = await pgc.query<{ n: number }>(insertSql(UNNEST), columns(b));
          await pgc.query(LEDGER, [r.rows[0]!.n, Date.now()]);
          await pgc.query('COMMIT');
          return r.rows[0]!.n;
        },
      },
      {
        name: 'unnest arrays → INSERT … ON CONFLICT + rollup CTE (postgres.js)',
        page: async (b) =>
          js.begin(async (tx) => {
            const [r] = await tx.unsafe(insertSql(UNNEST), columns(b) as never);
            await tx.unsafe(LEDGER, [r!.n, Date.now()]);
            return r!.n as number;
          }),
      },
      {
        name: 'COPY → temp stage → INSERT … SELECT ON CONFLICT + rollup CTE (pg)',
        setup: async () => void (await pgc.query(stage)),
        page: async (b) => {
          await pgc.query('BEGIN');
          await pgCopy(stageCopy, copyText(b));
          const r = await pgc.query<{ n: number }>(insertSql('stage'));
          await pgc.query(LEDGER, [r.rows[0]!.n, Date.now()]);
          await pgc.query('COMMIT');
          return r.rows[0]!.n;
        },
      },
      {
        name: 'COPY → temp stage → INSERT … SELECT ON CONFLICT + rollup CTE (postgres.js)',
        setup: async () => void (await js.unsafe(stage)),
        page: async (b) =>
          js.begin(async (tx) => {
            await jsCopy(tx, stageCopy, copyText(b));
            const [r] = await tx.unsafe(insertSql('stage'));
            await tx.unsafe(LEDGER, [r!.n, Date.now()]);
            return r!.n as number;
          }),
      },
      {
        name: 'JSON text → json_to_recordset → INSERT … ON CONFLICT + rollup CTE (pg)',
        page: async (b) => {
          await pgc.query('BEGIN');
          const objects = b.logId.map((_, i) =>
            Object.fromEntries(COLS.map((c, k) => [c, b[FIELDS[k]!][i]])),
          );
          const src = `json_to_recordset($1::json) AS r(${COLS.map((c, i) => `${c} ${TYPES[i]}`).join(', ')})`;
          const r = await pgc.query<{ n: number }>(insertSql(src), [JSON.stringify(objects)]);
          await pgc.query(LEDGER, [r.rows[0]!.n, Date.now()]);
          await pgc.query('COMMIT');
          return r.rows[0]!.n;
        },
      },
    ];

    // Rounds of every method in turn, best of the rounds: the machine is shared, and load comes and goes.
    const best = new Map<string, number>();
    const cpu = new Map<string, number>();
    const pgPid = (await pgc.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p;
    const [jsRow] = await js`SELECT pg_backend_pid() AS p`;
    const jsPid = jsRow!.p as number;
    for (const m of methods) await m.setup?.();
    for (let round = 0; round < ROUNDS; round++) {
      for (const m of methods) {
        await pgc.query('TRUNCATE shield_event_logs, shield_hourly, copy_baseline');
        await pgc.query('CHECKPOINT');
        const server = () => processCpuMs(pgPid) + processCpuMs(jsPid);
        const c0 = ownCpuMs() + server();
        const t0 = performance.now();
        let n = 0;
        for (const b of batches) n += await m.page(b);
        const ms = performance.now() - t0;
        const cpuMs = ownCpuMs() + server() - c0;
        if (n !== rows) throw new Error(`${m.name}: stored ${n} of ${rows}`);
        best.set(m.name, Math.min(best.get(m.name) ?? Infinity, ms));
        cpu.set(m.name, Math.min(cpu.get(m.name) ?? Infinity, cpuMs));
      }
    }
    // Wall-clock rate (best round), and CPU µs per row spent by this process and the server's backends.
    const baseline = rows / (best.get(methods[0]!.name)! / 1000);
    console.log('   rows/s  ×COPY  CPU µs/row (client+server)');
    for (const m of methods) {
      const rate = rows / (best.get(m.name)! / 1000);
      const perRow = (cpu.get(m.name)! * 1000) / rows;
      console.log(
        `${rate.toFixed(0).padStart(9)}  ${(rate / baseline).toFixed(2).padStart(5)}  ${perRow.toFixed(1).padStart(6)}  ${m.name}`,
      );
    }
    // Idempotence check on the chosen path: storing again adds nothing.
    const again = await methods[4]!.page(batches[0]!);
    console.log(`re-storing a page adds ${again} rows`);

    // A simple round trip: one parameterised SELECT at a time.
    const trips = 2000;
    let t0 = performance.now();
    for (let i = 0; i < trips; i++) await pgc.query('SELECT $1::int AS x', [i]);
    const pgTrip = ((performance.now() - t0) * 1000) / trips;
    t0 = performance.now();
    for (let i = 0; i < trips; i++) await js`SELECT ${i}::int AS x`;
    const jsTrip = ((performance.now() - t0) * 1000) / trips;
    console.log(
      `round trip: pg ${pgTrip.toFixed(0)} µs, postgres.js ${jsTrip.toFixed(0)} µs (${trips} sequential SELECTs)`,
    );
  } finally {
    await pgc.end().catch(() => {});
    await js.end().catch(() => {});
    await databases.dropAll();
  }
}

await main();
