// The text of `edgelog status`: the zones' health, each guardian zone's last snapshot, the recent days of
// the ledger, the queue and its schedulers.
import { formatTable, thousands, type TableOptions } from '../format/table.js';
import { safeText } from '../format/terminal-text.js';
import type { QueueStatus } from '../queue/queue-status.js';
import type { GuardianHealthRow, LedgerRow } from '../store/store.js';
import { span, type ZoneHealth } from './zone-health.js';

/** An ISO time to the second, or '' for none. */
export const iso = (ms: number | null) =>
  ms === null ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function renderStatus(
  zones: ZoneHealth[],
  guardian: GuardianHealthRow[],
  days: LedgerRow[],
  allDays: number,
  queue: QueueStatus | null,
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
