// `edgelog alerts list | check | test <hook>`.
import { Command } from 'commander';
import { fingerprint, type Notice } from '../alerts/payload.js';
import { deliver } from '../alerts/deliver.js';
import { describeLabels } from '../alerts/sql-evaluator.js';
import { formatDuration, type Config } from '../config/index.js';
import { startEngine } from '../engine.js';
import { UsageError } from '../errors/index.js';
import { formatTable } from '../format/table.js';
import { readerServer } from '../config/reader-config.js';
import { safeText } from '../format/terminal-text.js';
import { span } from '../status/zone-health.js';
import { openStore } from '../store/open-store.js';
import { commandContext, printJson } from './shared.js';
import { formatOption, jsonOption, outputFormat, type FormatOptions } from './args.js';

/**
 * What `alerts list` reads: on PostgreSQL through the readers' connection (database.readerUrl, else
 * url) without opening the store, which a role that may only read can do; on SQLite the archive.
 */
async function alertReads(database: Config['database']) {
  const server = readerServer(database);
  if (server === null) return openStore(database);
  const { postgresAlertReads, serverOptions } = await import('../store/postgres/postgres-store.js');
  return postgresAlertReads({
    ...serverOptions({ url: server, ssl: database.ssl }),
    applicationName: 'edgelog alerts',
  });
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace('.000Z', 'Z'));

/** An age as a person reads it: `42s`, `17m`, `3h05m`, `2d04h`. */
function age(ms: number): string {
  return ms < 60_000 ? `${Math.max(0, Math.round(ms / 1000))}s` : span(ms);
}

/**
 * How a rule's value and threshold read: a flatline rule's are durations (the age of the last ingestion
 * and maxAge, kept in milliseconds); the others' are counts.
 */
function figures(rules: Config['alerts']['rules']) {
  const flatline = new Set(rules.filter((r) => r.type === 'flatline').map((r) => r.name));
  return {
    value: (rule: string, v: number | null | undefined) =>
      v === null || v === undefined ? '' : flatline.has(rule) ? age(v) : v,
    threshold: (rule: string, v: number | null | undefined) =>
      v === null || v === undefined ? '' : flatline.has(rule) ? formatDuration(v) : v,
  };
}

export function alertsCommand(): Command {
  const alerts = new Command('alerts').description(
    'alert rules: their state, evaluation now, and hook tests',
  );

  alerts
    .command('list')
    .description('the configured rules, their state per zone, and recent notices')
    .addOption(formatOption())
    .addOption(jsonOption())
    .action(async (opts: FormatOptions, cmd: Command) => {
      const { config } = commandContext(cmd);
      const archive = await alertReads(config.database);
      try {
        const states = await archive.alerts.listStates();
        const series = await archive.alertSeries.list();
        const notices = await archive.alerts.notifications(20);
        if (outputFormat(opts) === 'json')
          return printJson({ rules: config.alerts.rules, states, series, notices });
        const shown = figures(config.alerts.rules);
        const out: string[] = [];
        if (config.alerts.rules.length === 0) out.push('no alert rules configured (alerts.rules)');
        for (const r of config.alerts.rules) {
          const what =
            r.type === 'spike'
              ? `${r.source} ${JSON.stringify(r.filter)} window ${formatDuration(r.window)} factor ${r.factor} min ${r.min} vs ${r.reference}×${r.referenceWindows}`
              : r.type === 'flatline'
                ? `${r.source} ingestion older than ${formatDuration(r.maxAge)}`
                : r.type === 'guardian'
                  ? `${r.counter} increase > ${r.maxIncrease}`
                  : r.type === 'new-term'
                    ? `${r.source} new ${r.field}${r.field === 'path' ? ` (depth ${r.depth ?? 1})` : ''} in ${formatDuration(r.window)} vs ${formatDuration(r.lookback)} before, min ${r.min}`
                    : `rows of: ${r.sql.replace(/\s+/g, ' ')}`;
          out.push(safeText(`${r.name} (${r.type}): ${what} → ${r.hooks.join(', ') || 'no hooks'}`));
        }
        out.push('');
        out.push(
          states.length === 0
            ? 'no rule evaluated yet'
            : formatTable(
                [
                  { header: 'rule', value: (s: (typeof states)[number]) => s.rule },
                  { header: 'zone', value: (s) => s.zone_id, right: true },
                  { header: 'state', value: (s) => s.state },
                  { header: 'since', value: (s) => iso(s.since) },
                  { header: 'value', value: (s) => shown.value(s.rule, s.last_value), right: true },
                  {
                    header: 'threshold',
                    value: (s) => shown.threshold(s.rule, s.last_threshold),
                    right: true,
                  },
                  { header: 'last notified', value: (s) => iso(s.last_notified_at) },
                  { header: 'evaluated', value: (s) => iso(s.last_evaluated_at) },
                ],
                states,
              ),
        );
        if (series.length > 0) {
          out.push('', 'sql rule alerts (one per row):');
          out.push(
            formatTable(
              [
                { header: 'rule', value: (s: (typeof series)[number]) => s.rule },
                {
                  header: 'labels',
                  value: (s) => describeLabels(JSON.parse(s.labels) as Record<string, string>),
                },
                { header: 'state', value: (s) => s.state },
                { header: 'since', value: (s) => iso(s.since) },
                { header: 'value', value: (s) => s.last_value ?? '', right: true },
                { header: 'last notified', value: (s) => iso(s.last_notified_at) },
              ],
              series,
            ),
          );
        }
        if (notices.length > 0) {
          out.push('', 'recent notices:');
          out.push(
            formatTable(
              [
                { header: 'rule', value: (n: (typeof notices)[number]) => n.rule },
                { header: 'zone', value: (n) => n.zone_id, right: true },
                { header: 'status', value: (n) => n.status },
                { header: 'hook', value: (n) => n.hook },
                { header: 'delivered', value: (n) => iso(n.delivered_at) || `no (${n.attempts} attempts)` },
                { header: 'last error', value: (n) => n.last_error ?? '' },
              ],
              notices,
            ),
          );
        }
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        await archive.close();
      }
    });

  alerts
    .command('check')
    .description('evaluate every rule now and deliver any notices')
    .addOption(formatOption())
    .addOption(jsonOption())
    .action(async (opts: FormatOptions, cmd: Command) => {
      const { config, logger } = commandContext(cmd);
      const engine = await startEngine(config, logger);
      try {
        const started = Date.now() - 1;
        const results = await engine.alerts.check();
        engine.alerts.notifier.startWorker();
        const delivery = await engine.alerts.notifier.settleSince(started, 15_000);
        if (outputFormat(opts) === 'json') return printJson({ results, delivery });
        const shown = figures(config.alerts.rules);
        process.stdout.write(
          results.length === 0
            ? 'no alert rules configured (alerts.rules)\n'
            : `${formatTable(
                [
                  { header: 'rule', value: (r: (typeof results)[number]) => r.rule },
                  { header: 'zone', value: (r) => r.zone, right: true },
                  { header: 'state', value: (r) => r.state },
                  { header: 'value', value: (r) => shown.value(r.rule, r.value), right: true },
                  { header: 'threshold', value: (r) => shown.threshold(r.rule, r.threshold), right: true },
                  { header: 'notified', value: (r) => r.notified ?? '' },
                  {
                    header: 'why',
                    value: (r) => (r.labels ? `${describeLabels(r.labels)}: ${r.reason}` : r.reason),
                  },
                ],
                results,
                80,
              )}\n${delivery.delivered + delivery.pending} notices: ${delivery.delivered} delivered, ${delivery.pending} queued\n`,
        );
      } finally {
        await engine.close();
        logger.flush();
      }
    });

  alerts
    .command('test')
    .description('send a sample notice to one hook and report the answer')
    .argument('<hook>', 'a hook name from alerts.hooks')
    .action(async (hook: string, _opts: unknown, cmd: Command) => {
      const { config } = commandContext(cmd);
      const hookConfig = config.alerts.hooks[hook];
      if (!hookConfig) {
        const known = Object.keys(config.alerts.hooks);
        throw new UsageError(`no hook "${hook}" in alerts.hooks (configured: ${known.join(', ') || 'none'})`);
      }
      const now = Date.now();
      const notice: Notice = {
        id: `test-${now}`,
        rule: 'edgelog-test',
        ruleType: 'spike',
        source: 'origin',
        zone: 0,
        status: 'firing',
        startsAt: now,
        endsAt: null,
        summary: 'test notice from `edgelog alerts test`; no action needed',
        details: { test: 'true' },
        fingerprint: fingerprint('edgelog-test', 'origin', 0),
      };
      const status = await deliver(hook, hookConfig, notice);
      process.stdout.write(`hook ${hook}: delivered (HTTP ${status})\n`);
    });

  return alerts;
}
