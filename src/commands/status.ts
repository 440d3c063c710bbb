// `edgelog status`: per zone what an on-call engineer asks first (freshness, the oldest day not yet
// complete and how long until the API forgets it, the last error), then the recent days of the ledger,
// the queue and its schedulers. It only reads: the archive is opened read-only and never created.
import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { formatTable, thousands, type TableOptions } from '../format/table.js';
import { safeText } from '../format/terminal-text.js';
import { displayUrl } from '../redact.js';
import { openReadOnlyConnection } from '../query/read-only.js';
import type { Db } from '../store/sqlite/database.js';
import type { LedgerRow, LogSource, QueryStore, SilenceRow } from '../store/store.js';
import { alertSummary, renderAlertSummary, type AlertSummaryState } from '../status/alert-summary.js';
import { missingDays } from '../status/missing-days.js';
import { renderMissing } from '../status/render-missing.js';
import { newestByZone, newestEntriesSql, zoneKey, type ZoneLists } from '../metrics/newest-entries.js';
import { snapshotFailure } from '../status/guardian-health.js';
import { span, zoneHealth, type ZoneHealth } from '../status/zone-health.js';
import { addDays, dayOf } from '../time/utc-day.js';
import { formatOption, idListArg, jsonOption, outputFormat, printJson, type FormatOptions } from './args.js';
import { readerServer } from '../config/reader-config.js';
import { commandContext } from './shared.js';

type StatusSource = LogSource | 'guardian';

interface StatusOptions extends FormatOptions {
  source?: StatusSource[];
  zone?: number[];
  all?: boolean;
  missing?: boolean;
  wide?: boolean;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** Why `zone` is not one of the configured zones (of the sources asked for), or undefined when it is. */
function notConfigured(
  config: Config,
  zone: number,
  sources: readonly StatusSource[],
  explicit: boolean,
): string | undefined {
  const lists = (
    [
      ['origin', 'pullZones', config.pullZones],
      ['shield', 'shieldZones', config.shieldZones],
      ['guardian', 'shieldZones', config.shieldZones],
    ] as const
  ).filter(([s]) => sources.includes(s));
  if (lists.some(([, , zones]) => zones.some((z) => z.id === zone))) return undefined;
  const configured = [...new Map(lists.map(([, key, zones]) => [key, zones])).entries()]
    .map(([key, zones]) => `${key}: ${zones.map((z) => z.id).join(', ') || 'none'}`)
    .join('; ');
  const which = explicit ? ` for ${sources.join('/')}` : '';
  return `zone ${zone} is not configured${which} (${configured}): check the zone id`;
}

interface GuardianHealth {
  zone: number;
  lastSnapshot: string | null;
  lastError: string | null;
}

/**
 * The statements status reads, the same on SQLite and PostgreSQL. Zones (whole numbers, checked by the
 * option's parser) and sources (one of three choices) are written into the text as literals.
 */
function archiveSql(opts: StatusOptions, sources: readonly StatusSource[]) {
  const zones = opts.zone?.map((z) => String(Math.trunc(z))) ?? null;
  const inZones = (col: string) => (zones ? `AND ${col} IN (${zones.join(', ')})` : '');
  const logSources = sources.filter((s) => s !== 'guardian').map((s) => `'${s}'`);
  return {
    alertStates: 'SELECT rule, zone_id, source, state FROM alert_state',
    silences: 'SELECT id, matchers, starts_at, ends_at, comment, created_at FROM alert_silences',
    ledger:
      logSources.length === 0
        ? null
        : `SELECT * FROM ingest_ledger WHERE source IN (${logSources.join(', ')}) ${inZones('zone_id')}
           ORDER BY source, zone_id, log_date DESC`,
    guardian: sources.includes('guardian')
      ? `SELECT shield_zone_id AS zone, max(taken_at) AS "lastSnapshot",
           (SELECT error FROM api_guardian_snapshots s2 WHERE s2.shield_zone_id = s.shield_zone_id
            ORDER BY taken_at DESC LIMIT 1) AS "lastError"
         FROM api_guardian_snapshots s WHERE 1 = 1 ${inZones('shield_zone_id')} GROUP BY shield_zone_id`
      : null,
  };
}

interface ArchiveData {
  ledger: LedgerRow[];
  guardian: GuardianHealth[];
  /** The newest entry (ms) of each zone shown, by zoneKey; absent for a zone without entries. */
  newest: ReadonlyMap<string, number>;
  /** Alert states and silences; null for an archive that has no silences yet (migrated by run/sync). */
  alerts: { states: AlertSummaryState[]; silences: SilenceRow[] } | null;
}

interface WantedZone {
  source: LogSource;
  zone: number;
  lookbackDays: number;
}

/** The zones shown: those configured (of the sources and zones asked for), and those the ledger knows. */
function shownZones(wanted: readonly WantedZone[], ledger: readonly LedgerRow[]): ZoneLists {
  const zones: Record<LogSource, number[]> = { origin: [], shield: [] };
  for (const w of wanted) zones[w.source].push(w.zone);
  for (const r of ledger) zones[r.source].push(r.zone_id);
  return zones;
}

function readArchive(
  db: Db,
  opts: StatusOptions,
  sources: readonly StatusSource[],
  wanted: readonly WantedZone[],
): ArchiveData {
  const sql = archiveSql(opts, sources);
  const ledger = sql.ledger === null ? [] : (db.prepare(sql.ledger).all() as LedgerRow[]);
  const newest = newestEntriesSql(shownZones(wanted, ledger));
  return {
    ledger,
    guardian: sql.guardian === null ? [] : (db.prepare(sql.guardian).all() as GuardianHealth[]),
    newest: newest === null ? new Map() : newestByZone(db.prepare(newest).raw(true).all() as unknown[][]),
    alerts: tablesOf(db).has('alert_silences')
      ? {
          states: db.prepare(sql.alertStates).all() as AlertSummaryState[],
          silences: db.prepare(sql.silences).all() as SilenceRow[],
        }
      : null,
  };
}

/** readArchive on a PostgreSQL archive, through its read-only query path. */
async function readServerArchive(
  queries: QueryStore,
  opts: StatusOptions,
  sources: readonly StatusSource[],
  wanted: readonly WantedZone[],
): Promise<ArchiveData> {
  const sql = archiveSql(opts, sources);
  const ledger =
    sql.ledger === null ? [] : ((await selectObjects(queries, sql.ledger)) as unknown as LedgerRow[]);
  const newest = newestEntriesSql(shownZones(wanted, ledger));
  return {
    ledger,
    guardian:
      sql.guardian === null
        ? []
        : ((await selectObjects(queries, sql.guardian)) as unknown as GuardianHealth[]),
    newest:
      newest === null
        ? new Map()
        : newestByZone((await selectObjects(queries, newest)).map((r) => [r.source, r.zone, r.newest])),
    alerts: await selectObjects(queries, sql.silences).then(
      async (silences) => ({
        states: (await selectObjects(queries, sql.alertStates)) as unknown as AlertSummaryState[],
        silences: silences as unknown as SilenceRow[],
      }),
      // An archive not migrated to silences yet (run/sync migrate it): no alert line.
      () => null,
    ),
  };
}

/** The archive's tables (an archive opened read-only may predate a migration). */
function tablesOf(db: Db): Set<string> {
  return new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
}

/** Every row of `sql` as an object; integers (all far below 2^53 here) as numbers. */
async function selectObjects(queries: QueryStore, sql: string): Promise<Array<Record<string, unknown>>> {
  return queries.readOnly(sql, { timeoutMs: 30_000 }, async (cursor) => {
    const rows: unknown[][] = [];
    for (let b = await cursor.next(1000); b.length > 0; b = await cursor.next(1000)) rows.push(...b);
    const names = cursor.columns;
    return rows.map((r) =>
      Object.fromEntries(r.map((v, i) => [names[i]!, typeof v === 'bigint' ? Number(v) : v])),
    );
  });
}

async function readQueue(config: Config) {
  const [{ Queue }, { INGEST_QUEUE }, { redisOptions }, { findRedis }] = await Promise.all([
    import('bullmq'),
    import('../queue/jobs.js'),
    import('../redis/connection.js'),
    import('../redis/resolve.js'),
  ]);
  const redis = await findRedis(config);
  if (!redis) return null;
  const q = new Queue(INGEST_QUEUE, { connection: redisOptions(redis.target), prefix: config.redis.prefix });
  try {
    return {
      redis: redis.display,
      counts: await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'),
      schedulers: (await q.getJobSchedulers(0, -1)).map((s) => s.key).sort(),
    };
  } finally {
    await q.close();
  }
}

export function statusCommand(): Command {
  const cmd = new Command('status')
    .description(
      'per zone: freshness, the oldest day not yet complete and when the API forgets it, the last error; then the recent days, the queue and its schedulers',
    )
    .addOption(
      new Option('--source <source...>', 'origin, shield and/or guardian (default: all three)').choices([
        'origin',
        'shield',
        'guardian',
      ]),
    )
    .option('--zone <id...>', 'only these zone ids (comma-separated or repeated)', idListArg)
    .option('--all', 'every day of the ledger (default: the days of the lookback)')
    .option(
      '--missing',
      'only the zone-days of the lookback that the ledger has no row for (never fetched), and how to fetch them',
    )
    .option('--wide', 'every cell whole (by default the tables fit the terminal, long cells cut)')
    .addOption(formatOption())
    .addOption(jsonOption());
  return cmd.action(async (opts: StatusOptions, command: Command) => {
    const { config } = commandContext(command);
    const format = outputFormat(opts);
    const sources: StatusSource[] = opts.source ?? ['origin', 'shield', 'guardian'];
    const path = config.database.path;
    const wanted: WantedZone[] = [
      ...config.pullZones.map((z) => ({
        source: 'origin' as const,
        zone: z.id,
        lookbackDays: config.schedule.originLookbackDays,
      })),
      ...config.shieldZones.map((z) => ({
        source: 'shield' as const,
        zone: z.id,
        lookbackDays: config.schedule.shieldLookbackDays,
      })),
    ].filter((z) => sources.includes(z.source) && (!opts.zone || opts.zone.includes(z.zone)));
    // Nothing is created: with no archive yet, the zones and the queue are still worth showing.
    let data: ArchiveData = { ledger: [], guardian: [], newest: new Map(), alerts: null };
    const server = readerServer(config.database);
    const archived = server !== null || existsSync(path);
    if (server !== null) {
      const { postgresQueries, serverOptions } = await import('../store/postgres/postgres-store.js');
      data = await readServerArchive(
        postgresQueries(serverOptions({ url: server, ssl: config.database.ssl })),
        opts,
        sources,
        wanted,
      );
    } else if (archived) {
      const conn = openReadOnlyConnection(path);
      try {
        data = readArchive(conn.db, opts, sources, wanted);
      } finally {
        conn.db.close();
      }
    }
    // A zone with history is shown even if no longer configured; one with none is most likely a typo.
    for (const zone of opts.zone ?? []) {
      if (data.ledger.some((r) => r.zone_id === zone) || data.guardian.some((g) => g.zone === zone)) continue;
      const unknown = notConfigured(config, zone, sources, opts.source !== undefined);
      if (unknown) throw new UsageError(unknown);
    }
    // A snapshot whose error object says success did not fail.
    data.guardian = data.guardian.map((g) => ({ ...g, lastError: snapshotFailure(g.lastError) }));
    const now = Date.now();
    const zones = zoneHealth(data.ledger, wanted, now, (s, z) => data.newest.get(zoneKey(s, z)) ?? null);
    const missing = missingDays(data.ledger, wanted, now);
    if (opts.missing && format !== 'json') {
      process.stdout.write(renderMissing(missing, now));
      return;
    }
    const queue = await readQueue(config);
    if (format === 'json') {
      printJson({
        now: iso(now),
        // A server's URL without its password.
        archive: archived ? (server !== null ? displayUrl(server) : path) : null,
        zones,
        guardian: data.guardian,
        ledger: data.ledger,
        missing: missing.map((m) => ({
          ...m,
          forgottenAt: m.forgottenAt === null ? null : iso(m.forgottenAt),
        })),
        queue,
        alerts:
          data.alerts && alertSummary(data.alerts.states, data.alerts.silences, config.alerts.rules, now),
      });
      return;
    }
    const firstShown = addDays(
      dayOf(now),
      -Math.max(config.schedule.originLookbackDays, config.schedule.shieldLookbackDays),
    );
    const days = opts.all
      ? data.ledger
      : data.ledger.filter((r) => r.log_date >= firstShown || r.state !== 'complete');
    // On a terminal the tables fit its width (the last errors are cut), unless --wide.
    const fit: TableOptions = opts.wide
      ? { maxCell: Infinity }
      : {
          maxCell: 70,
          ...(process.stdout.isTTY && process.stdout.columns ? { maxWidth: process.stdout.columns } : {}),
        };
    const gaps =
      missing.length > 0
        ? `\nmissing: ${missing.length} zone-day${missing.length === 1 ? '' : 's'} of the lookback never fetched (edgelog status --missing)`
        : '';
    const alerts =
      data.alerts && config.alerts.rules.length > 0
        ? `\n${renderAlertSummary(alertSummary(data.alerts.states, data.alerts.silences, config.alerts.rules, now))}`
        : '';
    const text = renderStatus(zones, data.guardian, days, data.ledger.length, queue, now, {
      all: opts.all === true,
      fit,
    });
    const note = archived
      ? ''
      : `archive: none at ${path} yet (\`edgelog sync\` or \`edgelog run\` creates it)\n`;
    process.stdout.write(`${note}${text.replace(/^\n/, '')}${gaps}${alerts}\n`);
  });
}

function renderStatus(
  zones: ZoneHealth[],
  guardian: GuardianHealth[],
  days: LedgerRow[],
  allDays: number,
  queue: Awaited<ReturnType<typeof readQueue>>,
  now: number,
  { all, fit }: { all: boolean; fit: TableOptions },
): string {
  const out: string[] = [];
  if (zones.length > 0) {
    out.push(
      formatTable(
        [
          { header: 'source', value: (z: ZoneHealth) => z.source },
          { header: 'zone', value: (z) => z.zone, right: true },
          { header: 'newest entry', value: (z) => iso(z.newestEntry) || 'none yet' },
          { header: 'behind', value: (z) => (z.lagMs === null ? '' : span(z.lagMs)), right: true },
          { header: 'last complete day', value: (z) => z.lastCompleteDay ?? '' },
          {
            header: 'oldest day not complete',
            value: (z) => (z.oldestOpen ? `${z.oldestOpen.day} (${z.oldestOpen.state})` : ''),
          },
          {
            header: 'API forgets it in',
            value: (z) =>
              z.forgottenAt === null
                ? z.oldestOpen
                  ? 'unknown'
                  : ''
                : span(Math.max(0, z.forgottenAt - now)),
            right: true,
          },
          { header: 'archived', value: (z) => thousands(z.archived), right: true },
          { header: 'quarantined', value: (z) => thousands(z.quarantined), right: true },
          {
            header: 'last error',
            value: (z) => (z.lastError ? `${z.lastError.day}: ${z.lastError.error}` : ''),
            flexible: true,
          },
        ],
        zones,
        fit,
      ),
    );
  }
  for (const g of guardian) {
    out.push(
      `guardian ${g.zone}: last snapshot ${g.lastSnapshot ?? 'none'}${g.lastError ? ` (failed: ${safeText(g.lastError)})` : ''}`,
    );
  }
  out.push('');
  if (days.length === 0) out.push('ledger: empty (nothing fetched yet; run `edgelog sync` or `edgelog run`)');
  else {
    out.push(all ? 'days:' : `days (of the lookback, and any not complete; ${allDays} in all: --all):`);
    out.push(
      formatTable(
        [
          { header: 'source', value: (r: LedgerRow) => r.source },
          { header: 'zone', value: (r) => r.zone_id, right: true },
          { header: 'day', value: (r) => r.log_date },
          { header: 'state', value: (r) => r.state },
          // The day over every pass: what the archive holds, and what could not be keyed.
          { header: 'archived', value: (r) => thousands(r.archived_entries), right: true },
          { header: 'quarantined', value: (r) => thousands(r.quarantined_entries), right: true },
          // The last (or current) pass.
          { header: 'pages', value: (r) => r.pages, right: true },
          { header: 'entries', value: (r) => thousands(r.entries), right: true },
          { header: 'new', value: (r) => thousands(r.new_entries), right: true },
          { header: 'malformed', value: (r) => r.malformed, right: true },
          { header: 'covered until', value: (r) => iso(r.covered_until) },
          { header: 'last error', value: (r) => r.last_error ?? '', flexible: true },
        ],
        days,
        fit,
      ),
    );
  }
  out.push('');
  if (queue) {
    out.push(
      `queue (${queue.redis}): ${Object.entries(queue.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    out.push(
      `schedulers: ${queue.schedulers.length > 0 ? queue.schedulers.join(', ') : 'none (start `edgelog run`)'}`,
    );
  } else {
    out.push('queue: Redis unreachable (is `edgelog run` or redis-server running?)');
  }
  return out.join('\n');
}
