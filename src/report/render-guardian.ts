// Pure: the API Guardian report as text.
import { formatTable, thousands } from '../format/table.js';
import { sparkline } from './charts.js';
import type { CounterDelta } from './counter-deltas.js';
import {
  GUARDIAN_COUNTERS,
  type GuardianCounter,
  type GuardianReport,
  type GuardianSnapshot,
  type GuardianZoneReport,
} from './guardian-report.js';
import { DEFAULT_WIDTH, scopeText, type RenderOptions } from './render-common.js';

export interface GuardianRenderOptions extends RenderOptions {
  /** Latest snapshots listed per zone. @defaultValue 10 */
  snapshots?: number;
}

/** Short names of the counters (their columns are in the JSON and in api_guardian_snapshots). */
export const COUNTER_LABELS: Record<GuardianCounter, string> = {
  total_requests_inspected: 'inspected',
  total_blocked_requests: 'blocked',
  total_logged_requests: 'logged',
  total_rate_limited: 'rate limited',
  total_failed_request_validation: 'failed validation',
  total_failed_authentication_enforcement: 'failed auth',
};

/** `1,200 (+200)`, `120 (reset)`, or the bare value when there is no previous snapshot. */
export function valueWithDelta(value: number | null, delta: CounterDelta): string {
  if (value === null) return '';
  if (delta.reset) return `${thousands(value)} (reset)`;
  if (delta.value === null) return thousands(value);
  return `${thousands(value)} (+${thousands(delta.value)})`;
}

export function renderGuardianReport(r: GuardianReport, opts: GuardianRenderOptions = {}): string {
  const width = opts.width ?? DEFAULT_WIDTH;
  const head = `API Guardian · ${scopeText(r.zone, r.window)}`;
  if (r.zones.length === 0) {
    return `${head}\nno API Guardian snapshots in this range (they are taken while \`edgelog run\` works)\n`;
  }
  return `${head}\n\n${r.zones.map((z) => renderZone(z, width, opts.snapshots ?? 10)).join('\n\n')}\n`;
}

function renderZone(z: GuardianZoneReport, width: number, listed: number): string {
  const failed = z.failed === 0 ? '' : `, ${z.failed} failed ${z.failed === 1 ? 'call' : 'calls'}`;
  const lines = [`zone ${z.zone}: ${z.snapshots.length} snapshots${failed}`];
  if (z.snapshots.length === 0) return lines.join('\n');
  const summary = formatTable(
    [
      { header: 'counter', value: (s: GuardianZoneReport['summary'][number]) => COUNTER_LABELS[s.counter] },
      { header: 'first', value: (s) => (s.first === null ? '' : thousands(s.first)), right: true },
      { header: 'last', value: (s) => (s.last === null ? '' : thousands(s.last)), right: true },
      { header: 'increase', value: (s) => thousands(s.increase), right: true },
      { header: 'resets', value: (s) => s.resets, right: true },
    ],
    z.summary,
  );
  // The sparkline of each counter's growth per snapshot goes after its summary line, in the space left.
  const summaryLines = summary.split('\n');
  const used = Math.max(...summaryLines.map((l) => l.length));
  const room = Math.max(8, width - used - 2);
  lines.push(
    ...summaryLines.map((line, i) => {
      if (i === 0) return `${line.padEnd(used)}  growth per snapshot`;
      const counter = z.summary[i - 1]!.counter;
      return `${line.padEnd(used)}  ${sparkline(
        z.snapshots.map((s) => s.deltas[counter].value),
        room,
      )}`.trimEnd();
    }),
  );
  const recent = z.snapshots.slice(-listed);
  const earlier = z.snapshots.length - recent.length;
  lines.push(
    '',
    earlier > 0 ? `last ${recent.length} snapshots (${earlier} earlier ones in --format json)` : 'snapshots',
  );
  lines.push(
    formatTable(
      [
        { header: 'taken at', value: (s: GuardianSnapshot) => s.takenAt.slice(0, 19).replace('T', ' ') },
        ...GUARDIAN_COUNTERS.map((c) => ({
          header: COUNTER_LABELS[c],
          value: (s: GuardianSnapshot) => valueWithDelta(s.counters[c], s.deltas[c]),
          right: true,
        })),
      ],
      recent,
    ),
  );
  return lines.join('\n');
}
