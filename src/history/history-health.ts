// What `edgelog status` and /metrics tell of the history: the days merged and pruned, their size, when
// it last merged and flushed, and every day whose recorded part is not there (a missing part of a pruned
// day is entries no reader returns: said loudly) or whose entries were counted lost by
// `compact --verify`. Read through the store's read-only path (both stores run this SQL) and a stat of
// each recorded part.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryStore, QueryValue } from '../store/store.js';
import { readWatermark } from './flush-marker.js';
import { dayDir, entryTable } from './layout.js';

export interface HistoryDayIssue {
  source: 'origin' | 'shield';
  zone: number;
  day: string;
  /** missing: a recorded part is not on disk; lost: compact --verify counted entries lost. */
  issue: 'missing' | 'lost';
  /** The entries concerned: the missing part's (as recorded), or those counted lost. */
  entries: number;
  pruned: boolean;
}

export interface HistoryHealth {
  root: string;
  merged: number;
  pruned: number;
  entries: number;
  bytes: number;
  lastMergeAt: number | null;
  /** The flush watermark readers go by, and when the store last recorded one. */
  watermark: string;
  flushedAt: number | null;
  lostEntries: number;
  issues: HistoryDayIssue[];
}

const DAYS_SQL = `SELECT source, zone_id, log_date, entries, quarantined, bytes, compacted_at, pruned_at,
  part, quarantine_part, lost_entries FROM history_days WHERE compacted_at IS NOT NULL`;
const FLUSH_SQL = 'SELECT flushed_at FROM history_flush';

async function rows(store: QueryStore, sql: string): Promise<QueryValue[][]> {
  return store.readOnly(sql, { timeoutMs: 30_000 }, async (cursor) => {
    const out: QueryValue[][] = [];
    for (let batch = await cursor.next(1000); batch.length > 0; batch = await cursor.next(1000))
      out.push(...batch);
    return out;
  });
}

const num = (v: QueryValue | undefined) => (v === null || v === undefined ? null : Number(v));

export async function readHistoryHealth(store: QueryStore, root: string): Promise<HistoryHealth> {
  const days = await rows(store, DAYS_SQL);
  const flushed = await rows(store, FLUSH_SQL).catch(() => []);
  const health: HistoryHealth = {
    root,
    merged: 0,
    pruned: 0,
    entries: 0,
    bytes: 0,
    lastMergeAt: null,
    watermark: String(readWatermark(root)),
    flushedAt: num(flushed[0]?.[0]),
    lostEntries: 0,
    issues: [],
  };
  for (const r of days) {
    const [source, zoneV, day, entries, quarantined, bytes, compactedAt, prunedAt, part, qPart, lost] = r;
    const zone = Number(zoneV);
    const src = source === 'shield' ? 'shield' : 'origin';
    const pruned = prunedAt !== null;
    health.merged++;
    if (pruned) health.pruned++;
    health.entries += num(entries) ?? 0;
    health.bytes += num(bytes) ?? 0;
    health.lastMergeAt = Math.max(health.lastMergeAt ?? 0, num(compactedAt) ?? 0);
    const base = { source: src, zone, day: String(day), pruned } as const;
    const gone = (table: Parameters<typeof dayDir>[1], name: QueryValue, count: number) =>
      typeof name === 'string' &&
      name !== '' &&
      !existsSync(
        join(dayDir(root, table, zone, String(day), table === 'quarantined_entries' ? src : undefined), name),
      ) &&
      health.issues.push({ ...base, issue: 'missing', entries: count });
    gone(entryTable(src), part ?? null, num(entries) ?? 0);
    gone('quarantined_entries', qPart ?? null, num(quarantined) ?? 0);
    const lostN = num(lost) ?? 0;
    if (lostN > 0) {
      health.lostEntries += lostN;
      health.issues.push({ ...base, issue: 'lost', entries: lostN });
    }
  }
  return health;
}
