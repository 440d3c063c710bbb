// `edgelog query` as a person at a terminal uses it, and off one: the built CLI under a pseudo-terminal
// (util-linux `script`) typed into key by key: the prompt runs statements over several lines, lists the
// tables and a table's columns, completes names with Tab, recalls and keeps the lines typed; `--schema`
// lists the tables and columns off a terminal too, and a statement from stdin runs as given.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import { addDays } from '../../src/time/utc-day.js';
import { runCli, writeConfig } from '../support/cli.js';
import { harness, NOW, TODAY, type Harness } from '../support/harness.js';
import { describeStores, storeHarness } from '../support/stores.js';
import { RAW_CONTROL, startOnTerminal } from '../support/terminal.js';

let h: Harness;
let config: string;
const DAY = addDays(TODAY, -1);

beforeAll(async () => {
  h = await harness({ entriesPerDay: 120, pageSize: 100 });
  const engine = await h.engine({ pullZones: [101], shieldZones: [201] });
  const plan = syncPlan(engine.config, { from: DAY, to: DAY, source: ['origin', 'shield'] }, NOW);
  expect((await executeSync(engine, plan)).summary.ok).toBe(true);
  config = writeConfig(h.dir, { database: { path: h.dbPath }, history: { path: join(h.dir, 'history') } });
}, 60_000);

afterAll(async () => h?.close());

/** The prompt, with its history file in the test's directory. */
function prompt(...args: string[]) {
  const history = join(h.dir, 'query-history');
  const session = startOnTerminal(['--config', config, 'query', ...args], {
    cwd: h.dir,
    env: { NO_COLOR: '1', EDGELOG_QUERY_HISTORY: history, HOME: h.dir },
    columns: 120,
  });
  return { session, history };
}

describe('edgelog query on a terminal, without a statement: the prompt', () => {
  it('runs a statement typed over two lines, lists tables and columns, completes names', async () => {
    const { session, history } = prompt();
    await session.waitFor('edgelog> ');
    session.type('SELECT count(*) AS n\r');
    await session.waitFor('...> ');
    session.type('  FROM origin_error_logs;\r');
    const counted = await session.waitFor('edgelog> ');
    expect(counted).toMatch(/^\s*n\n\s*120$/m);
    expect(counted).toContain('(1 row)');

    session.type('.tables\r');
    const tables = await session.waitFor('edgelog> ');
    expect(tables).toMatch(/^origin_error_logs +entries +13 +one row per origin error log entry$/m);
    expect(tables).toMatch(/^origin_errors_daily +view /m);

    // Tab alone completes `ingest_l` to the table's name; `\d` then shows its columns.
    session.type('\\d ingest_l');
    await session.waitFor('ingest_l');
    session.type('\t');
    await session.waitFor('edger');
    session.type('\r');
    const ledger = await session.waitFor('edgelog> ');
    expect(ledger).toMatch(/^ingest_ledger \(table\): /m);
    expect(ledger).toMatch(/^ {2}archived_entries +BIGINT$/m);

    // A column completed in a statement.
    session.type('SELECT shield_z');
    await session.waitFor('shield_z');
    session.type('\t');
    await session.waitFor('one_id');
    session.type(' FROM shield_event_logs LIMIT 1;\r');
    expect(await session.waitFor('edgelog> ')).toMatch(/^\s*shield_zone_id\s*\n\s+201$/m);

    // A table that is not there: the real ones named, the prompt goes on.
    session.type('SELECT * FROM origin_errors;\r');
    const failed = await session.waitFor('edgelog> ');
    expect(failed).toContain('Table with name origin_errors does not exist');
    expect(failed).toMatch(/the archive's tables and views: origin_error_logs, /);
    expect(failed).not.toContain('Did you mean');

    // The up arrow recalls the line before.
    session.type('\x1b[A');
    await session.waitFor('SELECT * FROM origin_errors;');
    session.type('\x15'); // Ctrl-U: the recalled line dropped
    session.type('.quit\r');
    const { code } = await session.done;
    expect(code).toBe(0);
    const kept = readFileSync(history, 'utf8');
    expect(kept).toContain('  FROM origin_error_logs;\n');
    expect(kept).toContain('SELECT * FROM origin_errors;\n');
    expect(statSync(history).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('Ctrl-C drops a statement being typed, or stops one running; Ctrl-D leaves', async () => {
    const { session } = prompt();
    await session.waitFor('edgelog> ');
    session.type('SELECT 1 AS one\r');
    await session.waitFor('...> ');
    session.type('\x03');
    await session.waitFor('edgelog> ');
    session.type('SELECT 2 AS two;\r');
    const shown = await session.waitFor('edgelog> ');
    expect(shown).toMatch(/^two\s*\n\s+2$/m);
    expect(shown).not.toContain('one');
    // A statement running is stopped at once, well before its 30 s bound, and the prompt goes on.
    session.type('SELECT count(*) FROM range(100000000000) a;\r');
    await new Promise((r) => setTimeout(r, 1_000));
    const stoppedAt = Date.now();
    session.type('\x03');
    expect(await session.waitFor('edgelog> ', 10_000)).toContain('cancelled');
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    session.type('\x04');
    expect((await session.done).code).toBe(0);
  }, 60_000);

  it('shows hostile text from the archive escaped', async () => {
    const { session } = prompt();
    await session.waitFor('edgelog> ');
    session.type(`SELECT chr(27) || '[2J' || chr(8238) AS x;\r`);
    const shown = await session.waitFor('edgelog> ');
    expect(shown).toContain('\\x1b[2J\\u202e');
    const row = shown.split('\n').find((l) => l.startsWith('\\x1b'));
    expect(row).toBe('\\x1b[2J\\u202e');
    expect(row).not.toMatch(RAW_CONTROL);
    session.type('.quit\r');
    await session.done;
  }, 60_000);
});

/** What each store's prompt says it speaks, a function of its own SQL alone, and a column's own type. */
const STORE_DIALECT = {
  SQLite: { name: "SQLite's SQL", own: 'substr(sqlite_version(), 1, 2)', version: '3.', logDate: 'TEXT' },
  PostgreSQL: {
    name: "PostgreSQL's SQL",
    own: 'substr(version(), 1, 10)',
    version: 'PostgreSQL',
    logDate: 'text',
  },
} as const;

describeStores('edgelog query --engine store on a terminal, without a statement', (store) => {
  let sh: Harness;
  let storeConfig: string;
  beforeAll(async () => {
    sh = await storeHarness(store, { entriesPerDay: 120, pageSize: 100 });
    const engine = await sh.engine({ pullZones: [101], shieldZones: [201] });
    const plan = syncPlan(engine.config, { from: DAY, to: DAY, source: ['origin', 'shield'] }, NOW);
    expect((await executeSync(engine, plan)).summary.ok).toBe(true);
    const database = sh.databaseUrl ? { url: sh.databaseUrl } : { path: sh.dbPath };
    storeConfig = writeConfig(sh.dir, { database, history: { path: join(sh.dir, 'history') } });
  }, 60_000);
  afterAll(async () => sh?.close());

  it("opens the same prompt in the store's own SQL, listing and completing the store's tables", async () => {
    const dialect = STORE_DIALECT[store];
    // Before: refused ("the prompt speaks the archive's dialect: --engine store takes a statement").
    const session = startOnTerminal(['--config', storeConfig, 'query', '--engine', 'store'], {
      cwd: sh.dir,
      env: { NO_COLOR: '1', EDGELOG_QUERY_HISTORY: join(sh.dir, 'query-history'), HOME: sh.dir },
      columns: 120,
    });
    const opened = await session.waitFor('edgelog> ');
    expect(opened).toMatch(new RegExp(`^edgelog query --engine store: .*, in ${dialect.name} `, 'm'));
    // A function of the store's SQL alone: the archive's dialect (DuckDB) has neither.
    session.type(`SELECT count(*) AS n, ${dialect.own} AS v\r`);
    await session.waitFor('...> ');
    session.type('  FROM origin_error_logs;\r');
    const counted = await session.waitFor('edgelog> ');
    expect(counted).toMatch(
      new RegExp(`^\\s*n\\s+v\\s*\\n\\s*120\\s+${dialect.version.replace('.', '\\.')}\\s*$`, 'm'),
    );

    session.type('.tables\r');
    const tables = await session.waitFor('edgelog> ');
    expect(tables).toMatch(/^ingest_ledger +table +\d+ +where ingestion of each/m);
    expect(tables).toMatch(/^origin_error_logs +table +\d+/m);
    // PostgreSQL's partitions are rows of their tables, not tables to list.
    expect(tables).not.toMatch(/^origin_error_logs_/m);

    // A name completed from the store's catalogue, then `\d` with the store's own types.
    session.type('\\d ingest_l');
    await session.waitFor('ingest_l');
    session.type('\t');
    await session.waitFor('edger');
    session.type('\r');
    const ledger = await session.waitFor('edgelog> ');
    expect(ledger).toMatch(/^ingest_ledger \(table\): /m);
    expect(ledger).toMatch(new RegExp(`^ {2}log_date +${dialect.logDate}$`, 'm'));

    session.type('.help\r');
    expect(await session.waitFor('edgelog> ')).toContain(`(${dialect.name}: --engine store)`);
    session.type('.quit\r');
    expect((await session.done).code).toBe(0);
  }, 60_000);
});

describe('edgelog query off a terminal', () => {
  it('--schema prints every table and view with its columns; with a name, that one', async () => {
    const all = await runCli(['--config', config, 'query', '--schema'], { cwd: h.dir });
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^origin_error_logs \(entries\): one row per origin error log entry$/m);
    expect(all.stdout).toMatch(/^ {2}time +TIMESTAMP$/m);
    expect(all.stdout).toMatch(/^api_guardian_deltas \(view\): /m);
    const one = await runCli(['--config', config, 'query', '--schema', 'ingest_ledger', '--format', 'csv'], {
      cwd: h.dir,
    });
    expect(one.stdout.split('\r\n')[0]).toBe('table_name,kind,column_name,data_type');
    expect(one.stdout).toContain('ingest_ledger,table,log_date,VARCHAR\r\n');
    expect(one.stdout).not.toContain('origin_error_logs');
    const none = await runCli(['--config', config, 'query', '--schema', 'origin_errors'], { cwd: h.dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /no table or view named "origin_errors"; the archive's tables and views: origin_error_logs, /,
    );
  });

  it('runs the statement read from stdin', async () => {
    const r = await runCli(['--config', config, 'query', '--format', 'csv'], {
      cwd: h.dir,
      input: 'SELECT count(*) AS n FROM shield_event_logs',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('n\r\n120\r\n');
    const none = await runCli(['--config', config, 'query'], { cwd: h.dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^edgelog: no statement: give one .*--schema lists the tables\n$/);
  });
});
