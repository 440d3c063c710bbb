// The API Guardian report's data: each zone's counters at every snapshot and how much they grew.
import { GUARDIAN_COUNTER_COLUMNS, type GuardianCounterColumn } from '../values/guardian-counters.js';
import type { ReportReads } from '../store/store.js';
import { counterDeltas, type CounterDelta } from './counter-deltas.js';
import { readScope, type ReportParams } from './sources.js';
import type { ReportWindow } from './window.js';

/** The counter columns of api_guardian_snapshots, in display order. */
export const GUARDIAN_COUNTERS = Object.values(GUARDIAN_COUNTER_COLUMNS);

export type GuardianCounter = GuardianCounterColumn;

export interface GuardianSnapshot {
  id: number;
  takenAt: string;
  counters: Record<GuardianCounter, number | null>;
  /** Against the zone's previous snapshot that held counters. */
  deltas: Record<GuardianCounter, CounterDelta>;
}

export interface CounterSummary {
  counter: GuardianCounter;
  first: number | null;
  last: number | null;
  /** Sum of the deltas: growth over the window, counting growth after each reset. */
  increase: number;
  resets: number;
}

export interface GuardianZoneReport {
  zone: number;
  /** Snapshots that held counters, oldest first. */
  snapshots: GuardianSnapshot[];
  /** Snapshots of failed calls (an error and no counters). */
  failed: number;
  summary: CounterSummary[];
}

export interface GuardianReport {
  source: 'guardian';
  zone: number | null;
  window: ReportWindow;
  zones: GuardianZoneReport[];
}

type SnapshotRow = { id: number; shield_zone_id: number; taken_at: string } & Record<
  GuardianCounter,
  number | null
>;

/** Reads the report from one snapshot of the archive (`reads`). */
export async function buildGuardianReport(
  reads: ReportReads,
  { scope }: ReportParams,
): Promise<GuardianReport> {
  const rows = (await reads.guardianSnapshots(readScope(scope))) as SnapshotRow[];
  const byZone = new Map<number, SnapshotRow[]>();
  for (const row of rows) {
    const list = byZone.get(row.shield_zone_id) ?? [];
    list.push(row);
    byZone.set(row.shield_zone_id, list);
  }
  return {
    source: 'guardian',
    zone: scope.zone,
    window: scope.window,
    zones: [...byZone].map(([zone, list]) => zoneReport(zone, list)),
  };
}

/** Pure: one zone's snapshots (time order) → counters, deltas and a summary per counter. */
export function zoneReport(zone: number, rows: readonly SnapshotRow[]): GuardianZoneReport {
  const held = rows.filter((r) => GUARDIAN_COUNTERS.some((c) => r[c] !== null));
  const deltas = new Map(GUARDIAN_COUNTERS.map((c) => [c, counterDeltas(held.map((r) => r[c]))]));
  const snapshots = held.map((r, i) => ({
    id: r.id,
    takenAt: r.taken_at,
    counters: Object.fromEntries(GUARDIAN_COUNTERS.map((c) => [c, r[c]])) as GuardianSnapshot['counters'],
    deltas: Object.fromEntries(
      GUARDIAN_COUNTERS.map((c) => [c, deltas.get(c)![i]!]),
    ) as GuardianSnapshot['deltas'],
  }));
  const summary = GUARDIAN_COUNTERS.map((counter) => {
    const values = held.map((r) => r[counter]).filter((v): v is number => v !== null);
    const d = deltas.get(counter)!;
    return {
      counter,
      first: values[0] ?? null,
      last: values.at(-1) ?? null,
      increase: d.reduce((sum, x) => sum + (x.value ?? 0), 0),
      resets: d.filter((x) => x.reset).length,
    };
  });
  return { zone, snapshots, failed: rows.length - held.length, summary };
}
