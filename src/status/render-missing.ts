// `edgelog status --missing`: the zone-days never fetched, and the one command that fetches them.
import { formatTable } from '../format/table.js';
import type { MissingDay } from './missing-days.js';
import { span } from './zone-health.js';

export interface MissingContext {
  /** Every configured zone per source (not only those asked for): a `sync` of them all needs no --zone. */
  configured: ReadonlyArray<{ source: 'origin' | 'shield'; zone: number }>;
  /** The program as the person invoked it, e.g. `npx edgelog` (commands/program-name.ts). */
  program: string;
}

/**
 * Pure: one `sync` over every missing zone-day, from the first to the last: its source and zones named
 * only when they are fewer than those configured (a day it already holds in between gains nothing).
 */
export function catchUpCommand(missing: readonly MissingDay[], ctx: MissingContext): string {
  const days = missing.map((m) => m.day).sort();
  const from = days[0]!;
  const to = days.at(-1)!;
  const sources = [...new Set(missing.map((m) => m.source))].sort();
  const wantedSources = [...new Set(ctx.configured.map((w) => w.source))].sort();
  const narrowSource = sources.join() !== wantedSources.join();
  const zones = [...new Set(missing.map((m) => m.zone))].sort((a, b) => a - b);
  const wantedZones = [
    ...new Set(ctx.configured.filter((w) => sources.includes(w.source)).map((w) => w.zone)),
  ];
  const narrowZones = zones.length !== wantedZones.length;
  return [
    `${ctx.program} sync`,
    ...(narrowSource ? [`--source ${sources.join(' ')}`] : []),
    ...(narrowZones ? [`--zone ${zones.join(',')}`] : []),
    to === from ? `--date ${from}` : `--from ${from} --to ${to}`,
  ].join(' ');
}

export function renderMissing(missing: readonly MissingDay[], now: number, ctx: MissingContext): string {
  if (missing.length === 0) {
    return 'missing: none (every configured zone has a ledger row for each day of its lookback)\n';
  }
  const table = formatTable(
    [
      { header: 'source', value: (m: MissingDay) => m.source },
      { header: 'zone', value: (m) => m.zone, right: true },
      { header: 'day', value: (m) => m.day },
      {
        header: 'API forgets it in',
        value: (m) => (m.forgottenAt === null ? 'unknown' : span(Math.max(0, m.forgottenAt - now))),
        right: true,
      },
    ],
    missing,
  );
  return [
    `missing (the lookback's zone-days with no ledger row: never fetched):`,
    table,
    '',
    'to fetch them now:',
    `  ${catchUpCommand(missing, ctx)}`,
    '',
  ].join('\n');
}
