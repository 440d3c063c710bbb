// `edgelog demo`: the first command a newcomer runs. Starts the built-in simulator, syncs the last
// three days of a few zones into a local archive through the real engine (BullMQ on a local Redis),
// evaluates a sample alert rule, and shows what landed with sample queries.
import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, type ConfigInput } from '../config/index.js';
import { DEFAULT_DATABASE_PATH } from '../config/defaults.js';
import { startEngine, type Engine } from '../engine.js';
import { formatTable } from '../format/table.js';
import { ownerId } from '../ingest/lease-owner.js';
import type { QueryStore } from '../store/store.js';
import { Simulator } from '../simulator/index.js';
import { demoAccount } from '../simulator/demo-account.js';
import { addDays, dayOf } from '../time/utc-day.js';
import { programName } from './program-name.js';
import { sampleAlertLine } from './demo-alert-line.js';
import { commandContext, intArg, type GlobalOptions } from './shared.js';
import { executeSync } from '../sync/execute-sync.js';
import { syncPlan } from '../sync/sync-plan.js';
import { compactSummary } from './compact.js';

/**
 * The archive a user has configured, if any: a configuration file in use (--config, EDGELOG_CONFIG, or
 * ./edgelog.config.json) or the archive variables. The demo never writes into it.
 */
function configuredArchive(cmd: Command, env: NodeJS.ProcessEnv): string | null {
  const file = cmd.optsWithGlobals<GlobalOptions>().config || env.EDGELOG_CONFIG;
  if (env.EDGELOG_DATABASE_URL) return redactedUrl(env.EDGELOG_DATABASE_URL);
  if (env.EDGELOG_DB) return env.EDGELOG_DB;
  if (file) return `the one ${file} names`;
  if (existsSync(DEFAULT_CONFIG_FILE)) return `the one ${DEFAULT_CONFIG_FILE} names`;
  return null;
}

/** A URL without its password, for messages. */
/** The variables the next commands need to read the demo's archive instead of a configured one. */
function demoHint(
  database: string,
  postgres: string | null,
  configured: boolean,
  env: NodeJS.ProcessEnv,
  history: string,
): string {
  // The demo's history is its own: the readers are told where (EDGELOG_HISTORY).
  if (postgres) return `EDGELOG_DATABASE_URL=${redactedUrl(postgres)} EDGELOG_HISTORY=${history} `;
  if (database === DEFAULT_DATABASE_PATH && !configured) return '';
  // EDGELOG_DB sets aside a URL from a file, not one from the environment (config/file.ts).
  return `${env.EDGELOG_DATABASE_URL ? 'EDGELOG_DATABASE_URL= ' : ''}EDGELOG_DB=${database} EDGELOG_HISTORY=${history} `;
}

function redactedUrl(text: string): string {
  try {
    const url = new URL(text);
    url.password = '';
    return url.href;
  } catch {
    return 'EDGELOG_DATABASE_URL';
  }
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'start the built-in API simulator, sync the last three days of a few zones, and show what landed',
    )
    .option(
      '--database <file|url>',
      'archive to write: a SQLite file, or a postgres:// URL of a database for the demo (default: data/edgelog.db, so that status, query and report read it; data/demo.db when an archive is configured, which the demo never touches)',
    )
    .option('--entries <n>', 'entries per zone per day served by the simulator', intArg, 2000)
    .action(async (opts: { database?: string; entries: number }, cmd: Command) => {
      // Without an archive of one's own, the demo fills the default archive: the next commands (status,
      // query, report) then just work. With one (a configuration file, EDGELOG_DB, EDGELOG_DATABASE_URL),
      // the demo writes a file of its own and never the configured archive: only --database chooses
      // another, a PostgreSQL database included.
      const configured = configuredArchive(cmd, process.env);
      const database = opts.database ?? (configured ? 'data/demo.db' : DEFAULT_DATABASE_PATH);
      const postgres = POSTGRES_URL.test(database) ? database : null;
      // Its history is its own too: beside its archive file (data/history for the default one), apart
      // for a demo archive of its own (absolute for PostgreSQL, whose history.path must be).
      const history =
        configured === null && !postgres
          ? join(dirname(database), 'history')
          : postgres
            ? resolve(dirname(DEFAULT_DATABASE_PATH), 'demo-history')
            : join(dirname(database), 'demo-history');
      const hint = demoHint(database, postgres, configured !== null, process.env, history);
      const sim = new Simulator(demoAccount(opts.entries, Date.now()));
      const urls = await sim.listen();
      const overrides: ConfigInput = {
        api: { ...urls, accessKey: sim.accessKey },
        redis: { prefix: 'edgelog-demo' },
        // Over the file and the environment (overrides come last): the configured archive is set aside.
        database: postgres ? { url: postgres } : { path: database, url: null },
        // The demo's history is its own too: beside its archive file (data/history for the default one),
        // never a configured history.path.
        history: { path: history },
        pullZones: [
          { id: 101, name: 'demo-cdn' },
          { id: 102, name: 'demo-video' },
        ],
        shieldZones: [{ id: 201, name: 'demo-waf' }, { id: 202 }],
        alerts: {
          rules: [
            {
              name: 'origin-5xx-spike',
              type: 'spike',
              source: 'origin',
              filter: { statusCodeMin: 500 },
              window: '1h',
              // Compared with the same hour on the two days before, which the demo archives completely.
              reference: 'same-hour',
              referenceWindows: 2,
              factor: 3,
              min: 20,
            },
          ],
        },
      };
      const { config, logger } = commandContext(cmd, overrides, { terminalLogLevel: 'warn' });
      const out = (line = '') => process.stdout.write(`${line}\n`);
      let engine: Awaited<ReturnType<typeof startEngine>> | undefined;
      try {
        engine = await startEngine(config, logger);
        out(`edgelog demo`);
        out(
          `  API simulator  ${urls.baseUrl.replace(/\/api$/, '')} (seeded data; zones 101, 102 origin; 201, 202 Shield)`,
        );
        out(
          // The SQLite file's absolute path, or the server's URL without its password.
          `  archive        ${engine.store.location}`,
        );
        if (configured !== null && !opts.database) {
          out(`  your archive   ${configured}: not touched (the demo writes its own)`);
        }
        out(
          `  Redis          ${engine.redis.display}${engine.redis.embedded ? ' (private redis-server started for you)' : ''}`,
        );
        out();
        const today = dayOf(Date.now());
        const plan = syncPlan(config, { from: addDays(today, -2), to: today }, Date.now());
        out(`Syncing ${plan.days.length} zone-days (the last three UTC days) through the job queue…`);
        const { summary, text } = await executeSync(engine, plan, { progress: process.stderr });
        out(text);
        // In the archive's dialect, as `edgelog query` answers them (DuckDB over the history and the store).
        const [{ archiveQueries }, { historyRoot }, { DEMO_SAMPLE_QUERIES }] = await Promise.all([
          import('../history/archive-queries.js'),
          import('../history/history-root.js'),
          import('../history/sample-query.js'),
        ]);
        const archive = archiveQueries({ root: historyRoot(config), store: engine.store.queries });
        for (const { title, sql } of DEMO_SAMPLE_QUERIES) {
          out();
          out(`${title}:`);
          out(`  $ edgelog query "${sql}"`);
          await printRows(archive, sql, out);
        }
        out();
        await demoHistory(engine, archive, out);
        out();
        const alert = (await engine.alerts.repo.listStates()).find(
          (s) => s.rule === 'origin-5xx-spike' && s.zone_id === 101,
        );
        out(sampleAlertLine('origin-5xx-spike', 101, alert));
        out();
        const program = programName();
        out('Next:');
        out(`  ${hint}${program} status`);
        out(`  ${hint}${program} query "SELECT * FROM shield_event_logs LIMIT 5"`);
        out(`  ${hint}${program} report origin --zone 101`);
        out();
        out('Your own account (README, "Your own account in five steps"):');
        out(`  ${program} init --pull-zone <id> --shield-zone <id>`);
        out('The simulator on its own, at an address a configuration keeps:');
        out(`  ${program} simulate --port 8080`);
        out(`  ${program} init --simulator http://127.0.0.1:8080 --pull-zone 101 --shield-zone 201`);
        if (!summary.ok) process.exitCode = 1;
      } finally {
        await engine?.close();
        await sim.close();
        logger.flush();
      }
    });
}

type Out = (line?: string) => void;

/** A query's rows as the demo prints them (a table, two spaces in). */
async function printRows(queries: QueryStore, sql: string, out: Out): Promise<void> {
  const { names, rows } = await queries.readOnly(sql, { timeoutMs: 30_000 }, async (c) => {
    const all: unknown[][] = [];
    for (let b = await c.next(500); b.length > 0; b = await c.next(500)) all.push(...b);
    return { names: c.columns, rows: all };
  });
  const columns = names.map((name, i) => ({
    header: name,
    value: (r: unknown[]) => (typeof r[i] === 'bigint' ? Number(r[i]) : r[i]),
  }));
  out(formatTable(columns, rows).replace(/^/gm, '  '));
}

/**
 * The days that are done move into the Parquet history, as `edgelog run` moves them, and one question is
 * answered from it as `edgelog query` answers it (DuckDB over the files and the newer rows).
 */
async function demoHistory(engine: Engine, archive: QueryStore, out: Out): Promise<void> {
  const { config } = engine;
  const [{ historyRoot }, { openDuckDb, COMPACTION_DUCKDB_OPTIONS }, { historyPass }, parquet, day, sample] =
    await Promise.all([
      import('../history/history-root.js'),
      import('../history/duckdb.js'),
      import('../history/history-pass.js'),
      import('../history/parquet-options.js'),
      import('../history/compact-day.js'),
      import('../history/sample-query.js'),
    ]);
  const root = historyRoot(config);
  out(`History (${root}): the settled days, in Parquet files`);
  out('  $ edgelog compact');
  const duck = await openDuckDb({ ...COMPACTION_DUCKDB_OPTIONS, tempDirectory: join(root, day.SCRATCH_DIR) });
  const started = Date.now();
  try {
    const summary = await historyPass(
      {
        store: engine.store,
        root,
        duck,
        owner: ownerId('demo'),
        now: Date.now,
        leaseMs: config.worker.lease,
        parquet: parquet.DEFAULT_PARQUET_OPTIONS,
        pageRows: day.compactionPageRows(engine.store.dialect),
      },
      { filter: {}, hotDays: config.history.hotDays, originLookbackDays: config.schedule.originLookbackDays },
    );
    out(
      compactSummary(summary, Date.now() - started)
        .trimEnd()
        .replace(/^/gm, '  '),
    );
  } finally {
    duck.closeSync();
  }
  out();
  const { title, sql } = sample.HISTORY_SAMPLE_QUERY;
  out(`${title}:`);
  out(`  $ edgelog query "${sql}"`);
  await printRows(archive, sql, out);
}
