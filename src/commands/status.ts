// `edgelog status`: per zone what an on-call engineer asks first (freshness, the oldest day not yet
// complete and how long until the API forgets it, the last error), then the recent days of the ledger,
// the queue and its schedulers. It only reads: the archive is opened read-only and never created.
import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { readerServer } from '../config/reader-config.js';
import type { TableOptions } from '../format/table.js';
import { readQueueStatus } from '../queue/queue-status.js';
import { displayUrl } from '../redact.js';
import { alertSummary, renderAlertSummary, type AlertSummary } from '../status/alert-summary.js';
import { missingDays } from '../status/missing-days.js';
import { NO_ARCHIVE, readStatus, settleStatus, type StatusAsk } from '../status/read-status.js';
import { renderMissing } from '../status/render-missing.js';
import { programName } from './program-name.js';
import { iso, renderStatus } from '../status/render-status.js';
import { wantedZones, type StatusSource } from '../status/wanted-zones.js';
import { zoneHealth } from '../status/zone-health.js';
import { zoneKey } from '../store/archive-reads.js';
import { openReader } from '../store/open-reader.js';
import { addDays, dayOf } from '../time/utc-day.js';
import { formatOption, idListArg, jsonOption, outputFormat, printJson, type FormatOptions } from './args.js';
import { commandContext } from './shared.js';
import { historyPath } from '../config/history-path.js';
import { readHistoryHealth, type HistoryHealth } from '../history/history-health.js';
import { renderHistory } from '../status/render-history.js';

interface StatusOptions extends FormatOptions {
  source?: StatusSource[];
  zone?: number[];
  all?: boolean;
  missing?: boolean;
  wide?: boolean;
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
    const ask: StatusAsk = {
      sources: opts.source ?? ['origin', 'shield', 'guardian'],
      zones: opts.zone,
      explicitSources: opts.source !== undefined,
    };
    const path = config.database.path;
    const wanted = wantedZones(config, ask.sources, ask.zones);
    // Nothing is created: with no archive yet, the zones and the queue are still worth showing.
    const server = readerServer(config.database);
    const archived = server !== null || existsSync(path);
    let data = NO_ARCHIVE;
    const now = Date.now();
    let alerts: AlertSummary | null = null;
    let history: HistoryHealth | null = null;
    const root = historyPath(config);
    if (archived) {
      const reader = await openReader(config.database, { applicationName: 'edgelog status' });
      try {
        data = await readStatus(reader.status, ask, wanted);
        // An archive that predates the history's tables (run and sync migrate it) shows no history line.
        if (root !== null) history = await readHistoryHealth(reader.queries, root).catch(() => null);
        if (config.alerts.rules.length > 0) {
          // An archive that predates the silences (run and sync migrate it) shows no alert line.
          alerts = await Promise.all([
            reader.alerts.listStates(),
            reader.alertSeries.list(),
            reader.silences.list({ activeAt: now }),
          ]).then(
            ([states, series, silences]) => alertSummary(states, series, silences, config.alerts.rules, now),
            () => null,
          );
        }
      } finally {
        await reader.close();
      }
    }
    data = settleStatus(data, config, ask);
    const zones = zoneHealth(data.ledger, wanted, now, (s, z) => data.newest.get(zoneKey(s, z)) ?? null);
    const missing = missingDays(data.ledger, wanted, now);
    if (opts.missing && format !== 'json') {
      process.stdout.write(
        renderMissing(missing, now, {
          configured: wantedZones(config, ['origin', 'shield'], undefined),
          program: programName(),
        }),
      );
      return;
    }
    const queue = await readQueueStatus(config);
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
        alerts,
        history,
      });
      return;
    }
    const lookback = Math.max(config.schedule.originLookbackDays, config.schedule.shieldLookbackDays);
    const firstShown = addDays(dayOf(now), -lookback);
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
        ? `\nmissing: ${missing.length} zone-day${missing.length === 1 ? '' : 's'} of the lookback never fetched (${programName()} status --missing)`
        : '';
    const text = renderStatus(zones, data.guardian, days, data.ledger.length, queue, now, {
      all: opts.all === true,
      fit,
    });
    const note = archived
      ? ''
      : `archive: none at ${path} yet (\`${programName()} sync\` or \`${programName()} run\` creates it)\n`;
    const alertLine = alerts ? `\n${renderAlertSummary(alerts)}` : '';
    const historyLines = history ? `\n${renderHistory(history, now).trimEnd()}` : '';
    process.stdout.write(`${note}${text.replace(/^\n/, '')}${gaps}${alertLine}${historyLines}\n`);
    // Entries gone from every reader are never said quietly.
    if (history && history.issues.length > 0) process.exitCode = 1;
  });
}
