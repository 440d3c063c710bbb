// What `edgelog status` reads of the archive, through the readers' store (store/open-reader.ts): the
// ledger rows of the sources and zones asked for, each Shield zone's latest guardian snapshot, and the
// newest entry of every zone shown. With no archive yet, nothing is created and nothing is read.
import { UsageError } from '../errors/index.js';
import type { Config } from '../config/index.js';
import type { GuardianHealthRow, LedgerRow, LogSource, StatusReads } from '../store/store.js';
import { snapshotFailure } from './guardian-health.js';
import { notConfigured, shownZones, type StatusSource, type WantedZone } from './wanted-zones.js';

export interface ArchiveData {
  ledger: LedgerRow[];
  guardian: GuardianHealthRow[];
  /** The newest entry (ms) of each zone shown, by zoneKey; absent for a zone without entries. */
  newest: ReadonlyMap<string, number>;
}

export const NO_ARCHIVE: ArchiveData = { ledger: [], guardian: [], newest: new Map() };

export interface StatusAsk {
  sources: readonly StatusSource[];
  zones: readonly number[] | undefined;
  /** True when the sources were named on the command line (the error then says which). */
  explicitSources: boolean;
}

export async function readStatus(
  reads: StatusReads,
  ask: StatusAsk,
  wanted: readonly WantedZone[],
): Promise<ArchiveData> {
  const zones = ask.zones ?? null;
  const logSources = ask.sources.filter((s): s is LogSource => s !== 'guardian');
  const ledger = await reads.ledgerRows(logSources, zones);
  const guardian = ask.sources.includes('guardian') ? await reads.latestGuardian(zones) : [];
  const newest = await reads.newestEntries(shownZones(wanted, ledger));
  return { ledger, guardian, newest };
}

/**
 * Checks the zones asked for and settles each guardian error: a zone with history is shown even if no
 * longer configured, one with none is most likely a typo (UsageError); a snapshot whose error object
 * says success did not fail.
 */
export function settleStatus(
  data: ArchiveData,
  config: Pick<Config, 'pullZones' | 'shieldZones'>,
  ask: StatusAsk,
): ArchiveData {
  for (const zone of ask.zones ?? []) {
    if (data.ledger.some((r) => r.zone_id === zone) || data.guardian.some((g) => g.zone === zone)) continue;
    const unknown = notConfigured(config, zone, ask.sources, ask.explicitSources);
    if (unknown) throw new UsageError(unknown);
  }
  return { ...data, guardian: data.guardian.map((g) => ({ ...g, lastError: snapshotFailure(g.lastError) })) };
}
