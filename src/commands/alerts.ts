// `edgelog alerts list | check | test <hook>`.
import { Command } from 'commander';
import { fingerprint, type Notice } from '../alerts/payload.js';
import { deliver } from '../alerts/deliver.js';
import { dryRun } from '../alerts/dry-run.js';
import { filterText } from '../alerts/filter-text.js';
import { noticeRequest, single } from '../alerts/notice-request.js';
import { showRequest } from '../alerts/show-request.js';
import { compileTemplates } from '../alerts/templates.js';
import { silentLogger } from '../logger.js';
import { describeLabels } from '../alerts/sql-evaluator.js';
import { formatDuration, type Config } from '../config/index.js';
import { sqlRuleQueries, startEngine } from '../engine.js';
import { historyPath } from '../config/history-path.js';
import { UsageError } from '../errors/index.js';
import { formatTable } from '../format/table.js';
import { safeText } from '../format/terminal-text.js';
import { span } from '../status/zone-health.js';
import { openReader } from '../store/open-reader.js';
import { openStore } from '../store/open-store.js';
import { commandContext, printJson } from './shared.js';
import { addSilenceCommands } from './alerts-silences.js';
import { alertLabels, seriesLabels, silenceFromRow, silencing } from '../alerts/silences.js';
import { storedLabels } from '../alerts/stored-alerts.js';
import { formatOption, jsonOption, outputFormat, type FormatOptions } from './args.js';

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
      // PostgreSQL: through the readers' connection (database.readerUrl, else url), which a role that may
      // only read can use; SQLite: the archive.
      const archive = await openReader(config.database, { applicationName: 'edgelog alerts' });
      try {
        const now = Date.now();
        const rows = await archive.alerts.listStates();
        const seriesRows = await archive.alertSeries.list();
        const notices = await archive.alerts.notifications(20);
        const silences = (await archive.silences.list({ activeAt: now })).map(silenceFromRow);
        const severity = new Map(config.alerts.rules.map((r) => [r.name, r.severity]));
        // Whether a silence holds each alert's notices now (as the evaluator decides it).
        const states = rows.map((s) => ({
          ...s,
          silenced_by: silencing(
            silences,
            alertLabels(s.rule, s.source, s.zone_id, severity.get(s.rule)),
            now,
          ).map((x) => x.id),
        }));
        // A sql rule's alerts: matched by their row's labels under edgelog's own, as the evaluator does.
        const series = seriesRows.map((s) => ({
          ...s,
          silenced_by: silencing(
            silences,
            seriesLabels(s.rule, storedLabels(s.labels), severity.get(s.rule)),
            now,
          ).map((x) => x.id),
        }));
        if (outputFormat(opts) === 'json')
          return printJson({ rules: config.alerts.rules, states, series, notices });
        const shown = figures(config.alerts.rules);
        const out: string[] = [];
        if (config.alerts.rules.length === 0) out.push('no alert rules configured (alerts.rules)');
        for (const r of config.alerts.rules) {
          const what =
            r.type === 'spike'
              ? `${r.source} ${filterText(r.filter)}, window ${formatDuration(r.window)} factor ${r.factor} min ${r.min} vs ${r.reference}×${r.referenceWindows}`
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
                  { header: 'silenced', value: (s) => s.silenced_by.join(', ') },
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
                  value: (s) => describeLabels(storedLabels(s.labels)),
                },
                { header: 'state', value: (s) => s.state },
                { header: 'since', value: (s) => iso(s.since) },
                { header: 'value', value: (s) => s.last_value ?? '', right: true },
                { header: 'last notified', value: (s) => iso(s.last_notified_at) },
                { header: 'silenced', value: (s) => s.silenced_by.join(', ') },
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
    .option('--dry-run', 'print the requests the notices would make; save and send nothing')
    .addOption(formatOption())
    .addOption(jsonOption())
    .action(async (opts: FormatOptions & { dryRun?: boolean }, cmd: Command) => {
      const { config, logger } = commandContext(cmd);
      if (opts.dryRun) return checkDryRun(config, opts);
      const engine = await startEngine(config, logger);
      try {
        const started = Date.now() - 1;
        const results = await engine.alerts.check();
        // Every rule is judged: the groups are complete, no need to wait for their windows.
        await engine.alerts.notifier.flushOutbox({ closeAll: true });
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
                  {
                    header: 'notified',
                    value: (r) => r.notified ?? (r.silencedBy.length > 0 ? 'silenced' : ''),
                  },
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
    .option('--dry-run', 'print the request instead of sending it (credentials redacted)')
    .action(async (hook: string, opts: { dryRun?: boolean }, cmd: Command) => {
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
      const render = (await compileTemplates({ [hook]: hookConfig })).get(hook);
      if (opts.dryRun) {
        const request = noticeRequest(hook, hookConfig, single(notice), render);
        const shown = showRequest(request, hookConfig.type === 'slack', { pretty: process.stdout.isTTY });
        process.stdout.write(`${shown}\n`);
        return;
      }
      const status = await deliver(hook, hookConfig, notice, { render });
      process.stdout.write(`hook ${hook}: delivered (HTTP ${status})\n`);
    });

  addSilenceCommands(alerts, (database) => openReader(database, { applicationName: 'edgelog alerts' }));
  return alerts;
}

/** `alerts check --dry-run`: the evaluation as `alerts check` shows it, then each request it would make. */
async function checkDryRun(config: Config, opts: FormatOptions): Promise<void> {
  const templates = await compileTemplates(config.alerts.hooks);
  const store = await openStore(config.database);
  let run;
  try {
    run = await dryRun({
      config,
      repo: store.alerts,
      silences: store.silences,
      terms: store.terms,
      sql: { series: store.alertSeries, queries: sqlRuleQueries(historyPath(config), store) },
      templates,
      logger: silentLogger(),
      now: Date.now,
    });
  } finally {
    await store.close();
  }
  const shown = run.requests.map((r) => ({
    hook: r.hook,
    notices: r.notices,
    request: showRequest(r.request, config.alerts.hooks[r.hook]?.type === 'slack', {
      pretty: process.stdout.isTTY && outputFormat(opts) !== 'json',
    }),
  }));
  if (outputFormat(opts) === 'json') return printJson({ results: run.results, requests: shown });
  const figuresOf = figures(config.alerts.rules);
  const out = [
    run.results.length === 0
      ? 'no alert rules configured (alerts.rules)'
      : formatTable(
          [
            { header: 'rule', value: (r: (typeof run.results)[number]) => r.rule },
            { header: 'zone', value: (r) => r.zone, right: true },
            { header: 'state', value: (r) => r.state },
            { header: 'value', value: (r) => figuresOf.value(r.rule, r.value), right: true },
            { header: 'threshold', value: (r) => figuresOf.threshold(r.rule, r.threshold), right: true },
            {
              header: 'would notify',
              value: (r) => r.notified ?? (r.silencedBy.length > 0 ? 'silenced' : ''),
            },
            {
              header: 'why',
              value: (r) => (r.labels ? `${describeLabels(r.labels)}: ${r.reason}` : r.reason),
            },
          ],
          run.results,
          80,
        ),
    '',
    `dry run: nothing saved, nothing sent; ${shown.length} request${shown.length === 1 ? '' : 's'} would be made${shown.length > 0 ? ':' : ''}`,
  ];
  for (const r of shown)
    out.push('', `# hook ${r.hook}: ${r.notices} notice${r.notices === 1 ? '' : 's'}`, r.request);
  process.stdout.write(`${out.join('\n')}\n`);
}
