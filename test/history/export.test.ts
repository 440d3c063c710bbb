// `edgelog export` on both stores: one table's rows of a range of days from the history and the rows not
// yet in it, each once, as NDJSON, CSV (formula guard) or Parquet, never overwriting a file unless told.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/commands/export.js';
import { queryCommand } from '../../src/commands/query.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import { openDuckDb } from '../../src/history/duckdb.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import type { Day } from '../../src/time/utc-day.js';
import { memoryStdout } from '../report/fixture.js';
import { startCli } from '../support/cli.js';
import type { Harness } from '../support/harness.js';
import { compactArchive, historyRoot } from '../support/history-files.js';
import { describeStores, storeHarness, type StoreKind } from '../support/stores.js';

const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22'] as Day[];

async function archive(kind: StoreKind): Promise<{ h: Harness; configPath: string }> {
  const h = await storeHarness(kind, { entriesPerDay: 150, pageSize: 100 });
  const engine = await h.engine({ pullZones: [101, 102], shieldZones: [201] });
  const plan = syncPlan(
    engine.config,
    { from: DAYS[0], to: DAYS[2], source: ['origin', 'shield'] },
    Date.parse('2026-11-22T12:00:00Z'),
  );
  expect((await executeSync(engine, plan)).summary.ok).toBe(true);
  const root = historyRoot(h);
  // Every day flushed into parts by the sync, the first merged as well.
  expect(
    (await compactArchive(h, () => Date.parse('2026-11-22T12:00:00Z'), { filter: { to: DAYS[0] } })).days,
  ).toBe(3);
  const configPath = join(h.dir, 'edgelog.config.json');
  const database = h.databaseUrl ? { url: h.databaseUrl } : { path: h.dbPath };
  writeFileSync(configPath, JSON.stringify({ database, history: { path: root } }));
  return { h, configPath };
}

async function run(configPath: string, command: Command, ...args: string[]): Promise<void> {
  const program = new Command('edgelog')
    .option('-c, --config <file>')
    .exitOverride()
    .configureOutput({ writeErr: () => {} });
  program.addCommand(command.exitOverride());
  await program.parseAsync(['node', 'edgelog', '-c', configPath, command.name(), ...args]);
}

/** The clock of the exports below: the last day of DAYS is today. */
const NOW = () => Date.parse('2026-11-22T12:00:00Z');

async function exported(configPath: string, ...args: string[]): Promise<{ text: string; note: string }> {
  const stdout = memoryStdout();
  let note = '';
  await run(
    configPath,
    exportCommand(stdout, (t) => void (note += t), NOW),
    ...args,
  );
  return { text: stdout.text(), note };
}

async function queried(configPath: string, sql: string): Promise<string> {
  const stdout = memoryStdout();
  await run(
    configPath,
    queryCommand(stdout, () => {}),
    '--engine',
    'store',
    '--format',
    'ndjson',
    sql,
  );
  return stdout.text();
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describeStores('edgelog export', (store) => {
  let a: { h: Harness; configPath: string };
  beforeAll(async () => {
    a = await archive(store);
  }, 60_000);
  afterAll(async () => a?.h.close());

  it('without --to, exports up to today (UTC)', async () => {
    const args = ['--from', DAYS[1]!, '--source', 'shield', '--format', 'ndjson'];
    const { text } = await exported(a.configPath, ...args);
    expect(text).toBe((await exported(a.configPath, ...args, '--to', DAYS[2]!)).text);
    expect(new Set(lines(text).map((l) => (JSON.parse(l) as { log_date: string }).log_date))).toEqual(
      new Set(DAYS.slice(1)),
    );
  });

  it('writes each entry of the days once, from the files and the store, as NDJSON', async () => {
    const { text, note } = await exported(
      a.configPath,
      ...['--from', DAYS[0]!, '--to', DAYS[1]!, '--source', 'origin', '--zone', '101', '--format', 'ndjson'],
    );
    const rows = lines(text).map((l) => JSON.parse(l) as { log_id: string; log_date: string; time: string });
    const expected = lines(
      await queried(
        a.configPath,
        `SELECT log_id FROM origin_error_logs WHERE pull_zone_id = 101 AND log_date BETWEEN '${DAYS[0]}' AND '${DAYS[1]}'`,
      ),
    ).map((l) => (JSON.parse(l) as { log_id: string }).log_id);
    expect(rows.map((r) => r.log_id).sort()).toEqual(expected.sort());
    expect(new Set(rows.map((r) => r.log_date))).toEqual(new Set(DAYS.slice(0, 2)));
    expect(rows[0]!.time).toMatch(/^2026-11-2\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(note).toMatch(
      new RegExp(`edgelog: exported ${rows.length} rows of origin_error_logs to stdout\n$`),
    );
  });

  it('writes Parquet that DuckDB reads back, and never replaces a file unless --force', async () => {
    const file = join(a.h.dir, 'shield.parquet');
    const args = [
      '--from',
      DAYS[0]!,
      '--to',
      DAYS[2]!,
      '--source',
      'shield',
      '--format',
      'parquet',
      '--output',
      file,
    ];
    await exported(a.configPath, ...args);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const conn = await openDuckDb();
    try {
      const reader = await conn.runAndReadAll(
        `SELECT count(*), count(DISTINCT log_id), min(typeof(time)) FROM read_parquet('${file}')`,
      );
      const [[n, distinct, timeType]] = reader.getRows() as [[bigint, bigint, string]];
      const stored = lines(await queried(a.configPath, 'SELECT count(*) AS n FROM shield_event_logs'));
      expect(Number(n)).toBe((JSON.parse(stored[0]!) as { n: number }).n);
      expect(distinct).toBe(n);
      expect(timeType).toBe('TIMESTAMP');
    } finally {
      conn.closeSync();
    }
    const before = readFileSync(file);
    await expect(exported(a.configPath, ...args)).rejects.toThrow(
      /exists: choose another --output, or --force/,
    );
    expect(readFileSync(file)).toEqual(before);
    await exported(a.configPath, ...args.map((x) => (x === DAYS[0] ? DAYS[2]! : x)), '--force');
    expect(readFileSync(file).equals(before)).toBe(false);
  });
});

describe('edgelog export as Parquet to a pipe its reader closed', () => {
  let a: { h: Harness; configPath: string };
  beforeAll(async () => {
    a = await archive('SQLite');
  }, 60_000);
  afterAll(async () => a?.h.close());

  // It exited 0 and left the whole file in the temp directory (edgelog-export-*).
  it('leaves nothing in the temp directory', async () => {
    const tmp = join(a.h.dir, 'tmp');
    mkdirSync(tmp);
    const run = startCli(
      [
        '--config',
        a.configPath,
        'export',
        '--from',
        DAYS[0]!,
        '--to',
        DAYS[2]!,
        '--source',
        'shield',
        '--format',
        'parquet',
      ],
      { cwd: a.h.dir, env: { TMPDIR: tmp } },
    );
    run.child.stdout!.destroy();
    const result = await run.done;
    expect(result.signal).toBeNull();
    expect(result.stderr).not.toMatch(/error/i);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('edgelog export as CSV', () => {
  let a: { h: Harness; configPath: string };
  beforeAll(async () => {
    a = await archive('SQLite');
    const db = openDatabase(a.h.dbPath);
    // As a page's transaction stores a row: with its write batch (above the flush watermark).
    db.transaction(() => {
      const batch = db.prepare('UPDATE write_batch SET last = last + 1 RETURNING last').pluck().get();
      db.prepare(
        `INSERT INTO origin_error_logs (pull_zone_id, log_id, log_date, timestamp, request_url, batch) VALUES (101, 'evil', ?, ?, '=HYPERLINK("http://x")', ?)`,
      ).run(DAYS[2], Date.parse(`${DAYS[2]}T01:00:00Z`), batch);
    })();
    db.close();
  }, 60_000);
  afterAll(async () => a?.h.close());

  it('neutralises formulas unless --csv-raw, to a file', async () => {
    const file = join(a.h.dir, 'out.csv');
    const args = ['--from', DAYS[2]!, '--to', DAYS[2]!, '--source', 'origin', '--format', 'csv'];
    await exported(a.configPath, ...args, '--output', file);
    const csv = readFileSync(file, 'utf8');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(csv.split('\r\n')[0]).toMatch(/^pull_zone_id,log_id,log_date,timestamp,request_url,.*,time$/);
    expect(csv).toContain(`,"'=HYPERLINK(""http://x"")",`);
    expect((await exported(a.configPath, ...args, '--csv-raw')).text).toContain(
      `,"=HYPERLINK(""http://x"")",`,
    );
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it('refuses a range that ends before it starts', async () => {
    await expect(
      exported(a.configPath, '--from', DAYS[2]!, '--to', DAYS[0]!, '--source', 'origin', '--format', 'csv'),
    ).rejects.toThrow(/is after --to/);
  });
});
