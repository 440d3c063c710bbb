// Pure: which zones `edgelog status` shows, and why a zone asked for is not one of them.
import type { Config } from '../config/index.js';
import type { LedgerRow, LogSource, ZoneLists } from '../store/store.js';

export type StatusSource = LogSource | 'guardian';

export interface WantedZone {
  source: LogSource;
  zone: number;
  lookbackDays: number;
}

type ZoneConfig = Pick<Config, 'pullZones' | 'shieldZones' | 'schedule'>;

/** The configured zones of `sources` (of `zones` when given), with their lookback. */
export function wantedZones(
  config: ZoneConfig,
  sources: readonly StatusSource[],
  zones: readonly number[] | undefined,
): WantedZone[] {
  return [
    ...config.pullZones.map((z) => ({
      source: 'origin' as const,
      zone: z.id,
      lookbackDays: config.schedule.originLookbackDays,
    })),
    ...config.shieldZones.map((z) => ({
      source: 'shield' as const,
      zone: z.id,
      lookbackDays: config.schedule.shieldLookbackDays,
    })),
  ].filter((z) => sources.includes(z.source) && (!zones || zones.includes(z.zone)));
}

/** The zones shown: those configured (of the sources and zones asked for), and those the ledger knows. */
export function shownZones(wanted: readonly WantedZone[], ledger: readonly LedgerRow[]): ZoneLists {
  const zones: Record<LogSource, number[]> = { origin: [], shield: [] };
  for (const w of wanted) zones[w.source].push(w.zone);
  for (const r of ledger) zones[r.source].push(r.zone_id);
  return zones;
}

/** Why `zone` is not one of the configured zones (of the sources asked for), or undefined when it is. */
export function notConfigured(
  config: Pick<Config, 'pullZones' | 'shieldZones'>,
  zone: number,
  sources: readonly StatusSource[],
  explicit: boolean,
): string | undefined {
  const lists = (
    [
      ['origin', 'pullZones', config.pullZones],
      ['shield', 'shieldZones', config.shieldZones],
      ['guardian', 'shieldZones', config.shieldZones],
    ] as const
  ).filter(([s]) => sources.includes(s));
  if (lists.some(([, , zones]) => zones.some((z) => z.id === zone))) return undefined;
  const configured = [...new Map(lists.map(([, key, zones]) => [key, zones])).entries()]
    .map(([key, zones]) => `${key}: ${zones.map((z) => z.id).join(', ') || 'none'}`)
    .join('; ');
  const which = explicit ? ` for ${sources.join('/')}` : '';
  return `zone ${zone} is not configured${which} (${configured}): check the zone id`;
}
