// `edgelog status --missing`: the zone-days never fetched, and the commands that fetch them.
import { formatTable } from '../format/table.js';
import type { MissingDay } from './missing-days.js';
import { span } from './zone-health.js';

export function renderMissing(missing: readonly MissingDay[], now: number): string {
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
  // One sync per source and zone, over its missing days' span (days it already holds are kept as they are).
  const byZone = new Map<string, MissingDay[]>();
  for (const m of missing) {
    const key = `${m.source} ${m.zone}`;
    byZone.set(key, [...(byZone.get(key) ?? []), m]);
  }
  const commands = [...byZone.values()].map((days) => {
    const { source, zone } = days[0]!;
    const from = days[0]!.day;
    const to = days.at(-1)!.day;
    const range = to === from ? `--date ${from}` : `--from ${from} --to ${to}`;
    return `  edgelog sync --source ${source} --zone ${zone} ${range}`;
  });
  return [
    `missing (the lookback's zone-days with no ledger row: never fetched):`,
    table,
    '',
    'to fetch them now:',
    ...commands,
    '',
  ].join('\n');
}
