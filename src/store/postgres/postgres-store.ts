// The archive on PostgreSQL: one pool, migrated at open, with the day partitions made ahead.
import type pg from 'pg';
import { EdgelogError } from '../../errors/index.js';
import type { Logger } from '../../logger.js';
import { redact, registerUrlCredentials } from '../../redact.js';
import { HOUR_MS } from '../hourly-rollup.js';
import { dayOf } from '../../time/utc-day.js';
import type {
  AlertSeriesStore,
  AlertsStore,
  ArchiveStore,
  MigrationResult,
  PruneResult,
  QueryStore,
  ReportStore,
  SilencesStore,
} from '../store.js';
import { PostgresAlerts } from './alerts.js';
import { PostgresRuleReads } from './rule-reads.js';
import { PostgresAlertSeries } from './alert-series.js';
import { PostgresTerms } from './terms.js';
import { displayDatabaseUrl, openPool, poolConfig, type PostgresOptions } from './connection.js';

export { serverOptions } from './connection.js';
import { PostgresGuardian } from './guardian.js';
import { postgresHealth } from './health.js';
import { PostgresHistory } from './history.js';
import { PostgresLedger } from './ledger.js';
import { withNamedErrors } from './named-errors.js';
import { StoreError } from '../store-error.js';
import { asPostgresStoreError } from './postgres-error.js';
import { POSTGRES_MIGRATIONS_DIR, migratePostgres } from './migrate.js';
import { PageWriter } from './page-writer.js';
import { daysAround } from './partition-plan.js';
import { Partitions } from './partitions.js';
import { PostgresQuarantine } from './quarantine.js';
import { PostgresQueries, type PostgresQueriesOptions } from './read-only-query.js';
import { PostgresReports } from './reports.js';
import { storeRuleQueries } from '../rule-queries.js';
import { PostgresSilences } from './silences.js';
import { transaction } from './transaction.js';

export interface PostgresStoreOptions extends PostgresOptions {
  logger?: Logger;
  /** Day partitions made ahead of today. @defaultValue 3 */
  partitionDaysAhead?: number;
  /** @defaultValue POSTGRES_MIGRATIONS_DIR */
  migrationsDir?: string;
  /** @defaultValue Date.now */
  now?: () => number;
}

/**
 * Opens the archive at `opts.url`, applies pending migrations and makes the partitions of the days
 * around now. Fails with a message naming the server (never its password) and, for the failures an
 * operator meets (server down, login refused, no database, read-only, no privilege…), the fix.
 */
export async function openPostgresStore(opts: PostgresStoreOptions): Promise<ArchiveStore> {
  const pool = openPool(opts, (err) =>
    opts.logger?.warn({ err: redact(err.message) }, 'an idle PostgreSQL connection was closed'),
  );
  const location = displayDatabaseUrl(opts.url);
  const migrationsDir = opts.migrationsDir ?? POSTGRES_MIGRATIONS_DIR;
  const now = opts.now ?? Date.now;
  const partitions = new Partitions(pool);
  const ahead = opts.partitionDaysAhead ?? 3;
  try {
    await refuseReadOnly(pool, location);
    const results = await migratePostgres(pool, migrationsDir);
    const bad = results.find((r) => r.status === 'failed');
    if (bad) {
      const failure = { code: bad.code, message: `migration ${bad.name}: ${bad.error}` };
      const named = asPostgresStoreError(failure, location, 'opening');
      if (named instanceof StoreError) throw named;
      throw new EdgelogError(`migration ${bad.name} failed: ${bad.error}`);
    }
    const applied = results.filter((r) => r.status === 'applied').map((r) => r.name);
    if (applied.length > 0) opts.logger?.info({ applied, database: location }, 'database migrated');
    await partitions.ensureDays(daysAround(now(), ahead));
  } catch (raw) {
    await pool.end().catch(() => {});
    const cause = asPostgresStoreError(raw, location, 'opening');
    if (cause instanceof EdgelogError) throw cause;
    throw new EdgelogError(`cannot open the database ${location}: ${cause.message}`, {
      retryable: true,
      cause,
    });
  }
  const writer = new PageWriter(pool, partitions);
  const ledger = new PostgresLedger(pool);
  const queries = new PostgresQueries(queryClientConfig(poolConfig(opts)));
  let closed: Promise<void> | null = null;
  return withNamedErrors({
    dialect: 'postgres',
    location,
    ledger,
    quarantine: new PostgresQuarantine(pool),
    guardian: new PostgresGuardian(pool),
    alerts: alertsStore(new PostgresAlerts(pool), new PostgresRuleReads(pool)),
    silences: new PostgresSilences(pool),
    terms: new PostgresTerms(pool),
    alertSeries: new PostgresAlertSeries(pool),
    reports: new PostgresReports(pool),
    queries,
    ruleQueries: storeRuleQueries(queries),
    health: postgresHealth(ledger, queries, location),
    history: new PostgresHistory(pool, partitions),
    storePage: (key, owner, page, at, leaseMs) => writer.store(key, owner, page, at, leaseMs),
    prepareAhead: (at) => partitions.ensureDays(daysAround(at, ahead)),
    prune: (beforeMs, now = Date.now()) => prune(pool, partitions, beforeMs, now),
    migrate: (): Promise<MigrationResult[]> => migratePostgres(pool, migrationsDir),
    close: () => (closed ??= pool.end()),
  });
}

/**
 * A database that takes no writes (a hot standby, default_transaction_read_only on) would fail the
 * first page of the first day: found out at start instead, as SQLite's probe write does.
 */
async function refuseReadOnly(pool: pg.Pool, location: string): Promise<void> {
  const { rows } = await pool.query<{ ro: string; standby: boolean }>(
    "SELECT current_setting('transaction_read_only') AS ro, pg_is_in_recovery() AS standby",
  );
  const row = rows[0]!;
  if (row.ro !== 'on' && !row.standby) return;
  const why = row.standby ? 'the server is a standby in recovery' : 'default_transaction_read_only is on';
  throw asPostgresStoreError({ code: '25006', message: why }, location, 'opening');
}

/**
 * Read-only queries on the archive at `opts.url` without opening the store: no pool, no migration, no
 * partition made (`edgelog query` and the other readers, which a role that may only read can run).
 */
export function postgresQueries(opts: PostgresOptions, queries: PostgresQueriesOptions = {}): QueryStore {
  registerUrlCredentials(opts.url);
  return new PostgresQueries(queryClientConfig(poolConfig(opts)), queries);
}

/**
 * The alert state and recent notices of the archive at `opts.url` without opening the store (no
 * migration, no partition made): a pool of one connection, for `edgelog alerts list`, which a role
 * that may only read can run. Close it when done.
 */
export function postgresAlertReads(opts: PostgresOptions): {
  alerts: Pick<AlertsStore, 'listStates' | 'notifications'>;
  silences: Pick<SilencesStore, 'list'>;
  alertSeries: Pick<AlertSeriesStore, 'list'>;
  close(): Promise<void>;
} {
  const pool = openPool({ ...opts, max: 1 }, () => {});
  const location = displayDatabaseUrl(opts.url);
  const alerts = new PostgresAlerts(pool);
  const silences = new PostgresSilences(pool);
  const series = new PostgresAlertSeries(pool);
  const named = <T>(read: Promise<T>) =>
    read.catch((err: unknown) => {
      throw asPostgresStoreError(err, location, 'opening');
    });
  return {
    alerts: {
      listStates: () => named(alerts.listStates()),
      notifications: (limit) => named(alerts.notifications(limit)),
    },
    silences: { list: (filter) => named(silences.list(filter)) },
    alertSeries: { list: () => named(series.list()) },
    close: () => pool.end(),
  };
}

/** `edgelog migrate` on PostgreSQL: applies pending migrations and reports each file (never throws for one). */
export async function migratePostgresArchive(opts: PostgresOptions): Promise<MigrationResult[]> {
  const pool = openPool({ ...opts, max: 1 }, () => {});
  try {
    return await migratePostgres(pool, POSTGRES_MIGRATIONS_DIR);
  } finally {
    await pool.end();
  }
}

/**
 * Reports on the archive at `opts.url` without opening the store (no migration, no partition made):
 * a pool of one connection, for `edgelog report`. Close it when done.
 */
export function postgresReports(opts: PostgresOptions): { reports: ReportStore; close(): Promise<void> } {
  const pool = openPool({ ...opts, max: 1 }, () => {});
  const location = displayDatabaseUrl(opts.url);
  const name = (err: unknown) => asPostgresStoreError(err, location, 'opening');
  const reports = new PostgresReports(pool);
  return {
    reports: {
      snapshot: (read) =>
        reports.snapshot(read).catch((err: unknown) => {
          throw name(err);
        }),
    },
    close: () => pool.end(),
  };
}

/** The query connection: the pool's settings without the pool's own. */
function queryClientConfig(c: pg.PoolConfig): pg.ClientConfig {
  const { max: _max, types: _types, ...client } = c;
  return { ...client, application_name: 'edgelog query' };
}

async function prune(
  pool: pg.Pool,
  partitions: Partitions,
  beforeMs: number,
  now: number,
): Promise<PruneResult> {
  const { rows } = await partitions.prune(beforeMs);
  const hour = beforeMs - (beforeMs % HOUR_MS);
  const beforeDay = dayOf(beforeMs);
  await transaction(pool, async (c) => {
    await c.query('DELETE FROM origin_hourly WHERE hour < $1', [hour]);
    await c.query('DELETE FROM shield_hourly WHERE hour < $1', [hour]);
    await c.query('DELETE FROM term_hourly WHERE hour < $1', [hour]);
    await c.query('DELETE FROM history_days WHERE log_date < $1', [beforeDay]);
    await c.query(
      'UPDATE ingest_ledger SET retention_removed_at = $1 WHERE log_date < $2 AND retention_removed_at IS NULL',
      [now, beforeDay],
    );
  });
  return {
    origin: rows.origin_error_logs ?? 0,
    shield: rows.shield_event_logs ?? 0,
    quarantined: rows.quarantined_entries ?? 0,
  };
}

/** The rule state and outbox, and what the rules measure, as one AlertsStore. */
function alertsStore(repo: PostgresAlerts, reads: PostgresRuleReads): AlertsStore {
  return {
    getState: (rule, zone) => repo.getState(rule, zone),
    save: (key, from, to, measured, notices, now) => repo.save(key, from, to, measured, notices, now),
    listStates: () => repo.listStates(),
    unqueued: (limit) => repo.unqueued(limit),
    undelivered: (maxAttempts, limit, after) => repo.undelivered(maxAttempts, limit, after),
    delivered: (id, hook) => repo.delivered(id, hook),
    createdSince: (since) => repo.createdSince(since),
    markEnqueued: (id, hook, now) => repo.markEnqueued(id, hook, now),
    markAttempt: (id, hook, now, error) => repo.markAttempt(id, hook, now, error),
    notifications: (limit) => repo.notifications(limit),
    coverage: (source, zone) => reads.coverage(source, zone),
    count: (source, zone, from, to, filter) => reads.count(source, zone, from, to, filter),
    lastSuccess: (source, zone) => reads.lastSuccess(source, zone),
    latestSnapshot: (zone, column, until) => reads.latestSnapshot(zone, column, until),
  };
}
