// `edgelog alerts silence <rule> | silences | unsilence <id>`: silences kept in the archive, which every
// worker's evaluations read (alerts/silences.ts decides which hold).
import { InvalidArgumentError, Option, type Command } from 'commander';
import { formatMatcher } from '../alerts/silence-matchers.js';
import { newSilenceId, planSilence, silenceFromRow, silenceToRow, type Silence } from '../alerts/silences.js';
import { formatDuration, type Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { formatTable } from '../format/table.js';
import { safeText } from '../format/terminal-text.js';
import { openStore } from '../store/open-store.js';
import type { SilencesStore } from '../store/store.js';
import {
  durationArg,
  formatOption,
  idListArg,
  jsonOption,
  outputFormat,
  type FormatOptions,
} from './args.js';
import { commandContext, printJson } from './shared.js';

/** To the second: what a person reads (the archive keeps the millisecond). */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function timeArg(value: string): number {
  const t = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || !Number.isFinite(t))
    throw new InvalidArgumentError('expected an ISO time such as 2026-11-26T08:00:00Z');
  return t;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface SilenceOptions {
  zone?: number[];
  match?: string[];
  for?: number;
  until?: number;
  comment?: string;
}

/** A silence as a line of `alerts silences`. */
export function describeSilence(s: Silence, now: number) {
  return {
    id: s.id,
    matchers: s.matchers.map(formatMatcher).join(', '),
    state: now < s.startsAt ? 'pending' : now < s.endsAt ? 'active' : 'expired',
    ends: iso(s.endsAt),
    left: now < s.endsAt ? formatDuration(Math.ceil((s.endsAt - now) / 60_000) * 60_000) : '',
    comment: s.comment ?? '',
  };
}

/** What `alerts silences` reads: the readers' connection on PostgreSQL, the archive on SQLite. */
export type SilenceReads = (database: Config['database']) => Promise<{
  silences: Pick<SilencesStore, 'list'>;
  close(): Promise<void>;
}>;

export function addSilenceCommands(alerts: Command, reads: SilenceReads): void {
  alerts
    .command('silence')
    .description("hold a rule's notices for a while (its state is still judged and shown)")
    .argument('<rule>', 'a rule name from alerts.rules')
    .option('--zone <id...>', 'only these zones (repeatable or comma-separated)', idListArg)
    .option(
      '--match <matcher>',
      "another label matcher: label=v, label!=v, label=~re, label!~re (a sql rule's: also its columns)",
      collect,
    )
    .addOption(
      new Option('--for <duration>', 'how long (default 1h)').argParser(durationArg).conflicts('until'),
    )
    .addOption(new Option('--until <time>', 'until this ISO time').argParser(timeArg))
    .option('--comment <text>', 'why, for whoever reads `alerts silences`')
    .action(async (rule: string, opts: SilenceOptions, cmd: Command) => {
      const { config } = commandContext(cmd);
      const known = config.alerts.rules.map((r) => r.name);
      const ruleType = config.alerts.rules.find((r) => r.name === rule)?.type;
      if (!known.includes(rule))
        throw new UsageError(`no rule "${rule}" in alerts.rules (configured: ${known.join(', ') || 'none'})`);
      const now = Date.now();
      let silence: Silence;
      try {
        silence = planSilence(
          {
            rule,
            zones: opts.zone ?? [],
            match: opts.match ?? [],
            forMs: opts.for,
            until: opts.until,
            comment: opts.comment,
            rowLabels: ruleType === 'sql',
          },
          newSilenceId(),
          now,
        );
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const store = await openStore(config.database);
      try {
        await store.silences.add(silenceToRow(silence));
      } finally {
        await store.close();
      }
      const d = describeSilence(silence, now);
      process.stdout.write(`${safeText(`silence ${d.id}: ${d.matchers} until ${d.ends} (${d.left})`)}\n`);
    });

  alerts
    .command('silences')
    .description('silences in force (and, with --all, those ended in the last 7 days)')
    .option('--all', 'also the silences that ended in the last 7 days')
    .addOption(formatOption())
    .addOption(jsonOption())
    .action(async (opts: FormatOptions & { all?: boolean }, cmd: Command) => {
      const { config } = commandContext(cmd);
      const now = Date.now();
      const archive = await reads(config.database);
      let rows;
      try {
        rows = await archive.silences.list({ endedAfter: opts.all ? now - 7 * 86_400_000 : now });
      } finally {
        await archive.close();
      }
      const shown = rows.map(silenceFromRow).map((s) => describeSilence(s, now));
      if (outputFormat(opts) === 'json') return printJson({ silences: shown });
      process.stdout.write(
        shown.length === 0
          ? 'no silences in force\n'
          : `${formatTable(
              [
                { header: 'id', value: (s: (typeof shown)[number]) => s.id },
                { header: 'matchers', value: (s) => s.matchers },
                { header: 'state', value: (s) => s.state },
                { header: 'ends', value: (s) => s.ends },
                { header: 'left', value: (s) => s.left, right: true },
                { header: 'comment', value: (s) => s.comment },
              ],
              shown,
            )}\n`,
      );
    });

  alerts
    .command('unsilence')
    .description('end a silence now: the next evaluation sends what its alerts held')
    .argument('<id>', 'a silence id from `alerts silences`')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const { config } = commandContext(cmd);
      if (!/^[0-9a-f]{1,64}$/.test(id))
        throw new UsageError(`not a silence id: ${safeText(JSON.stringify(id))}`);
      const store = await openStore(config.database);
      let outcome;
      try {
        outcome = await store.silences.expire(id, Date.now());
      } finally {
        await store.close();
      }
      if (outcome === 'unknown')
        throw new UsageError(`no silence ${id} (see \`edgelog alerts silences --all\`)`);
      process.stdout.write(
        outcome === 'expired' ? `silence ${id} ended\n` : `silence ${id} had ended already\n`,
      );
    });
}
