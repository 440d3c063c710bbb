// `edgelog compact`: compacts the settled zone-days of the archive into the Parquet history (docs/HISTORY.md)
// now, then prunes the compacted days older than history.hotDays, and prints what it did.
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { formatBytes } from '../format/bytes.js';
import { startProgress, stderrLine } from '../format/progress.js';
import { elapsed, thousands } from '../format/table.js';
import type { PassSummary } from '../history/history-pass.js';
import { DAMAGED_DIR, type VerifyResult } from '../history/verify.js';
import { safeText } from '../format/terminal-text.js';
import { ownerId } from '../ingest/lease-owner.js';
import type { LogSource } from '../store/ledger-types.js';
import type { Day } from '../time/utc-day.js';
import { commandContext, dayArg, idListArg, printJson } from './shared.js';

interface CompactOptions {
  from?: Day;
  to?: Day;
  source?: LogSource;
  zone?: number[];
  json?: boolean;
  verify?: boolean;
}

/** Pure: the summary a person reads. */
export function compactSummary(s: PassSummary, ms: number): string {
  const lines: string[] = [];
  const perEntry = s.entries > 0 ? ` (${(s.bytes / s.entries).toFixed(1)} B per entry)` : '';
  lines.push(
    s.days === 0
      ? 'nothing to compact: every settled zone-day is in history'
      : `compacted ${s.days} zone-${s.days === 1 ? 'day' : 'days'} in ${elapsed(ms)}: ` +
          `${thousands(s.entries)} entries, ${thousands(s.quarantined)} quarantined, ` +
          `${formatBytes(s.bytes)}${perEntry}`,
  );
  if (s.busy > 0)
    lines.push(`${s.busy} zone-${s.busy === 1 ? 'day was' : 'days were'} being compacted by another worker`);
  if (s.pruneBusy > 0)
    lines.push(
      `${s.pruneBusy} zone-${s.pruneBusy === 1 ? 'day is' : 'days are'} not pruned yet: another worker ` +
        `holds ${s.pruneBusy === 1 ? 'its' : 'their'} lease (a later compact prunes ${s.pruneBusy === 1 ? 'it' : 'them'})`,
    );
  for (const f of s.failed)
    lines.push(
      `could not ${f.step} ${f.source} zone ${f.zone} ${f.day}: ${safeText(f.error)} (\`edgelog compact --verify\` checks the history and repairs what it can)`,
    );
  if (s.pruned.days > 0) {
    const file = s.reclaimed?.fileBytes;
    const space = file ? `; archive file ${formatBytes(file.before)} → ${formatBytes(file.after)}` : '';
    const dropped =
      s.reclaimed && s.reclaimed.dropped.length > 0
        ? `; ${s.reclaimed.dropped.length} partitions dropped`
        : '';
    lines.push(
      `pruned ${s.pruned.days} zone-${s.pruned.days === 1 ? 'day' : 'days'} from the store: ` +
        `${thousands(s.pruned.entries)} entries, ${thousands(s.pruned.quarantined)} quarantined${space}${dropped}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Pure: what `--verify` found and did, as a person reads it. */
export function verifySummary(v: VerifyResult): string {
  const lines = [
    `verified ${thousands(v.parts)} parts of ${thousands(v.days)} zone-days: ` +
      (v.findings.length === 0 ? 'all as recorded' : `${v.findings.length} not as recorded`),
  ];
  for (const f of v.findings) {
    const what = `${f.table} zone ${f.zone} ${f.day}${f.part ? ` (${safeText(f.part)})` : ''}: ${f.problem}, ${safeText(f.detail)}`;
    const done =
      f.outcome === 'rebuilt'
        ? 'written again from the store'
        : f.outcome === 'lost'
          ? `LOST: ${thousands(f.lost)} entries of this pruned day are gone${f.problem === 'missing' ? '' : ` (the file is under ${DAMAGED_DIR}/)`}`
          : 'left as it is';
    lines.push(`  ${what}: ${done}`);
  }
  if (v.lostInAll > 0)
    lines.push(`${thousands(v.lostInAll)} archived entries are lost in all (history_days.lost_entries)`);
  return `${lines.join('\n')}\n`;
}

/**
 * Pure: whether the exit status is 1. Never silently (issue 27): a day that failed, a finding left as it
 * is, and, with --verify, entries lost from the archive — by any run, not only this one, as `status`
 * counts them — so that every check says so while they are gone.
 */
export function compactFailed(s: PassSummary, v: VerifyResult | null): boolean {
  if (s.failed.length > 0) return true;
  if (v === null) return false;
  return v.lost > 0 || v.lostInAll > 0 || v.findings.some((f) => f.outcome === 'left');
}

export function compactCommand(): Command {
  return new Command('compact')
    .description(
      'compact settled zone-days into the Parquet history now, then prune the store past history.hotDays',
    )
    .option('--from <day>', 'first UTC day (YYYY-MM-DD)', dayArg)
    .option('--to <day>', 'last UTC day', dayArg)
    .addOption(new Option('--source <source>', 'only this source').choices(['origin', 'shield']))
    .option('--zone <ids>', 'only these zones (repeatable, or comma-separated)', idListArg)
    .option('--json', 'print the summary as JSON')
    .option(
      '--verify',
      'first check every part of the history against its record, write a damaged day again from the store where it still holds it, and count what is lost (exit status 1 while the archive has lost entries)',
    )
    .action(async (opts: CompactOptions, cmd: Command) => {
      const { config, logger } = commandContext(cmd, undefined, { terminalLogLevel: 'warn' });
      const [
        { historyRoot },
        { openStore },
        { openDuckDb, COMPACTION_DUCKDB_OPTIONS },
        { historyPass },
        { DEFAULT_PARQUET_OPTIONS },
        { SCRATCH_DIR, compactionPageRows },
      ] = await Promise.all([
        import('../history/history-root.js'),
        import('../store/open-store.js'),
        import('../history/duckdb.js'),
        import('../history/history-pass.js'),
        import('../history/parquet-options.js'),
        import('../history/compact-day.js'),
      ]);
      const root = historyRoot(config);
      // A small page cache: compaction reads each row once.
      const store = await openStore(config.database, { logger, cacheMiB: 8 });
      const duck = await openDuckDb({ ...COMPACTION_DUCKDB_OPTIONS, tempDirectory: join(root, SCRATCH_DIR) });
      const started = Date.now();
      const figures = { done: 0, total: 0, entries: 0 };
      const progress = startProgress({
        out: process.stderr,
        line: stderrLine,
        read: () => ({ ...figures, pages: 0, elapsedMs: Date.now() - started }),
        format: (f) =>
          `compact ${f.done}/${f.total} zone-days · ${thousands(f.entries)} rows` +
          (f.elapsedMs >= 1000 ? ` · ${thousands(Math.round(f.entries / (f.elapsedMs / 1000)))}/s` : ''),
      });
      let summary: PassSummary;
      let verified: VerifyResult | null = null;
      const deps = {
        store,
        root,
        duck,
        owner: ownerId('compact'),
        now: Date.now,
        leaseMs: config.worker.lease,
        parquet: DEFAULT_PARQUET_OPTIONS,
        pageRows: compactionPageRows(store.dialect),
        onRows: (n: number) => (figures.entries += n),
      };
      try {
        if (opts.verify) verified = await (await import('../history/verify.js')).verifyHistory(deps);
        summary = await historyPass(deps, {
          filter: { from: opts.from, to: opts.to, source: opts.source, zones: opts.zone },
          hotDays: config.history.hotDays,
          originLookbackDays: config.schedule.originLookbackDays,
          onPlan: (days) => (figures.total = days.length),
          onDay: () => figures.done++,
        });
      } finally {
        progress.stop();
        duck.closeSync();
        await store.close();
      }
      const ms = Date.now() - started;
      // Peak RSS of this process (DuckDB's memory included), for the bench.
      const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
      if (opts.json)
        printJson({
          ...summary,
          ...(summary.flush ? { flush: { ...summary.flush, below: String(summary.flush.below) } } : {}),
          ...(verified ? { verify: verified } : {}),
          elapsedMs: ms,
          peakRssMb,
        });
      else process.stdout.write((verified ? verifySummary(verified) : '') + compactSummary(summary, ms));
      if (compactFailed(summary, verified)) process.exitCode = 1;
    });
}
