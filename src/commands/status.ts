// `edgelog status`: the ledger per zone and day, the queue, and the last success per zone.
import { Command, Option } from 'commander';
import { Queue } from 'bullmq';
import type { Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { formatTable, thousands } from '../format/table.js';
import { INGEST_QUEUE } from '../queue/jobs.js';
import { redisOptions } from '../redis/connection.js';
import { findRedis } from '../redis/resolve.js';
import { openArchive } from '../store/archive.js';
import type { LedgerRow, LogSource } from '../store/ledger.repository.js';
import { commandContext, idArg, printJson } from './shared.js';

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace('.000Z', 'Z'));

/** Why `zone` is not one of the configured zones (of `source`, if given), or undefined when it is. */
function notConfigured(config: Config, zone: number, source?: LogSource): string | undefined {
  const lists = (
    [
      ['origin', 'pullZones', config.pullZones],
      ['shield', 'shieldZones', config.shieldZones],
    ] as const
  ).filter(([s]) => !source || s === source);
  if (lists.some(([, , zones]) => zones.some((z) => z.id === zone))) return undefined;
  const configured = lists
    .map(([, key, zones]) => `${key}: ${zones.map((z) => z.id).join(', ') || 'none'}`)
    .join('; ');
  return `zone ${zone} is not configured${source ? ` for ${source}` : ''} (${configured}): check the zone id`;
}

export function statusCommand(): Command {
  return new Command('status')
    .description('show the ingestion ledger per zone and day, queue counts, and the last success per zone')
    .addOption(new Option('--source <source>', 'origin or shield').choices(['origin', 'shield']))
    .option('--zone <id>', 'one zone', idArg)
    .option('--json', 'print as JSON')
    .action(async (opts: { source?: LogSource; zone?: number; json?: boolean }, cmd: Command) => {
      const { config } = commandContext(cmd);
      const archive = openArchive(config.database.path);
      let ledger: LedgerRow[];
      try {
        ledger = archive.ledger.list({
          ...(opts.source ? { source: opts.source } : {}),
          ...(opts.zone ? { zone: opts.zone } : {}),
        });
      } finally {
        await archive.close();
      }
      // A zone with history is shown even if no longer configured; one with none is most likely a typo.
      if (opts.zone && ledger.length === 0) {
        const unknown = notConfigured(config, opts.zone, opts.source);
        if (unknown) throw new UsageError(unknown);
      }
      const lastSuccess = new Map<string, number>();
      for (const r of ledger) {
        if ((r.state === 'complete' || r.state === 'partial') && r.finished_at !== null) {
          const key = `${r.source} ${r.zone_id}`;
          lastSuccess.set(key, Math.max(lastSuccess.get(key) ?? 0, r.finished_at));
        }
      }
      const redis = await findRedis(config);
      let queue: Record<string, number> | null = null;
      let schedulers: string[] = [];
      if (redis) {
        const q = new Queue(INGEST_QUEUE, {
          connection: redisOptions(redis.target),
          prefix: config.redis.prefix,
        });
        try {
          queue = await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
          schedulers = (await q.getJobSchedulers(0, -1)).map((s) => s.key);
        } finally {
          await q.close();
        }
      }
      if (opts.json) {
        printJson({
          ledger,
          lastSuccess: Object.fromEntries(lastSuccess),
          queue,
          schedulers,
          redis: redis?.display ?? null,
        });
        return;
      }
      const out: string[] = [];
      out.push(
        ledger.length === 0
          ? 'ledger: empty (nothing fetched yet; run `edgelog sync` or `edgelog run`)'
          : formatTable(
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
                { header: 'last error', value: (r) => r.last_error ?? '' },
              ],
              ledger,
              80,
            ),
      );
      out.push('');
      out.push('last success:');
      for (const [key, ms] of lastSuccess) out.push(`  ${key}: ${iso(ms)}`);
      if (lastSuccess.size === 0) out.push('  none');
      out.push('');
      if (queue) {
        out.push(
          `queue (${redis!.display}): ${Object.entries(queue)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
        out.push(
          `schedulers: ${schedulers.length > 0 ? schedulers.sort().join(', ') : 'none (start `edgelog run`)'}`,
        );
      } else {
        out.push('queue: Redis unreachable (is `edgelog run` or redis-server running?)');
      }
      process.stdout.write(`${out.join('\n')}\n`);
    });
}
