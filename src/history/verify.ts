// `edgelog compact --verify`: every part of the history checked as a reader will read it, and against the
// record the merge wrote (history_days: the part's name and its keys' checksum), then repaired where it
// can be. A day whose rows the store still holds (not pruned) gets its part written again from the store,
// which covers every part below the watermark (parts.ts), and is merged again. A pruned day's damaged or
// missing part cannot be: its file is moved aside (out of every reader's way: one unreadable part fails
// every query that reads its table) and its entries are counted as lost, in history_days.lost_entries,
// which status and /metrics show and the exit code says. One bad day never stops the others.
import { existsSync, renameSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { coerceError } from '../errors/index.js';
import { makeDirs, PRIVATE_DIR_MODE } from '../file-modes.js';
import type { HistoryDayKey, HistoryDayRow } from '../store/history-store.js';
import { entryShape, QUARANTINE_SHAPE, type HistoryTableShape } from '../store/history-columns.js';
import { EMPTY_CHECKSUM } from './checksum.js';
import { compactDay, SCRATCH_DIR, withDayLease, type HistoryDeps } from './compact-day.js';
import { allPages } from './flush.js';
import { readWatermark } from './flush-marker.js';
import { dayDir, entryTable, type HistoryTable } from './layout.js';
import { checksumOf } from './part-file.js';
import { writePart } from './part-file.js';
import { liveParts, type Part } from './parts.js';
import { listDays } from './published-days.js';

/** Where damaged parts are moved, under the root (no reader lists it). */
export const DAMAGED_DIR = '.damaged';

export type PartProblem = 'missing' | 'unreadable' | 'mismatch' | 'overlap';

export interface DayFinding {
  source: 'origin' | 'shield';
  zone: number;
  day: string;
  table: HistoryTable;
  /** The part's file name, or the recorded name of a missing one. */
  part: string | null;
  problem: PartProblem;
  detail: string;
  /** rebuilt: written again from the store; lost: moved aside, its entries counted lost; left: not repaired. */
  outcome: 'rebuilt' | 'lost' | 'left';
  /** Entries counted lost by this finding. */
  lost: number;
}

export interface VerifyResult {
  /** Zone-day directories checked. */
  days: number;
  /** Parts read in full. */
  parts: number;
  findings: DayFinding[];
  /** Entries counted lost by this run. */
  lost: number;
  /** Entries counted lost before (history_days.lost_entries), this run's included. */
  lostInAll: number;
}

interface Checked {
  part: Part | null;
  problem: PartProblem;
  detail: string;
}

/** Checks every part of the history and repairs what it can (the module comment). */
export async function verifyHistory(deps: HistoryDeps): Promise<VerifyResult> {
  const result: VerifyResult = { days: 0, parts: 0, findings: [], lost: 0, lostInAll: 0 };
  const records = new Map(
    (await deps.store.history.list()).map((r) => [`${r.source}/${r.zone_id}/${r.log_date}`, r]),
  );
  const below = readWatermark(deps.root);
  const seen = new Set<string>();
  for (const table of ['origin_error_logs', 'shield_event_logs', 'quarantined_entries'] as const) {
    const dirs = listDays(deps.root, table);
    const keys = new Set(dirs.map((d) => `${d.source ?? sourceOf(table)}/${d.zone}/${d.day}`));
    // Recorded days whose directory is gone altogether.
    for (const r of records.values()) {
      const named = table === 'quarantined_entries' ? r.quarantine_part : r.part;
      const mine = table === 'quarantined_entries' || entryTable(r.source) === table;
      if (mine && named && !keys.has(`${r.source}/${r.zone_id}/${r.log_date}`))
        dirs.push({
          zone: r.zone_id,
          day: r.log_date,
          ...(table === 'quarantined_entries' ? { source: r.source } : {}),
          dir: dayDir(
            deps.root,
            table,
            r.zone_id,
            r.log_date,
            table === 'quarantined_entries' ? r.source : undefined,
          ),
          parts: [],
          legacy: false,
        });
    }
    for (const d of dirs) {
      result.days++;
      const source = d.source ?? sourceOf(table);
      const key: HistoryDayKey = { source, zone: d.zone, day: d.day };
      seen.add(`${source}/${d.zone}/${d.day}`);
      const record = records.get(`${source}/${d.zone}/${d.day}`);
      const shape = table === 'quarantined_entries' ? QUARANTINE_SHAPE : entryShape(source);
      const bad = await checkDay(deps, shape, d.dir, d.parts, below, record, result);
      for (const b of bad) {
        const finding = await repair(deps, key, table, shape, d.dir, b, record, below).catch(
          (err: unknown): DayFinding => ({
            ...key,
            table,
            part: b.part?.name ?? null,
            problem: b.problem,
            detail: `${b.detail}; not repaired: ${coerceError(err).message}`,
            outcome: 'left',
            lost: 0,
          }),
        );
        result.findings.push(finding);
        result.lost += finding.lost;
      }
    }
  }
  result.lostInAll = (await deps.store.history.list()).reduce((n, r) => n + (r.lost_entries ?? 0), 0);
  return result;
}

const sourceOf = (table: HistoryTable) => (table === 'shield_event_logs' ? 'shield' : 'origin');

/** The day's parts that are not as a reader and the record expect. */
async function checkDay(
  deps: HistoryDeps,
  shape: HistoryTableShape,
  dir: string,
  parts: Part[],
  below: bigint,
  record: HistoryDayRow | undefined,
  result: VerifyResult,
): Promise<Checked[]> {
  let live: Part[];
  try {
    live = liveParts(parts, below);
  } catch (err) {
    return [{ part: null, problem: 'overlap', detail: coerceError(err).message }];
  }
  const named = shape.table === 'quarantined_entries' ? record?.quarantine_part : record?.part;
  const recordedSum = shape.table === 'quarantined_entries' ? record?.quarantine_checksum : record?.checksum;
  const bad: Checked[] = [];
  if (named && !live.some((p) => p.name === named) && !existsSync(join(dir, named)))
    bad.push({ part: null, problem: 'missing', detail: `${named} is gone` });
  for (const p of live) {
    result.parts++;
    let sum: string;
    try {
      sum = await checksumOf(deps.duck, shape, join(dir, p.name));
    } catch (err) {
      bad.push({ part: p, problem: 'unreadable', detail: firstLine(coerceError(err).message) });
      continue;
    }
    if (p.name === named && sum !== recordedSum)
      bad.push({
        part: p,
        problem: 'mismatch',
        detail: `its keys are ${sum}, the merge recorded ${recordedSum}`,
      });
  }
  return bad;
}

const firstLine = (text: string) => text.split('\n')[0] ?? text;

/** Repairs one finding under the day's lease: written again from the store, or moved aside and counted lost. */
async function repair(
  deps: HistoryDeps,
  key: HistoryDayKey,
  table: HistoryTable,
  shape: HistoryTableShape,
  dir: string,
  bad: Checked,
  record: HistoryDayRow | undefined,
  below: bigint,
): Promise<DayFinding> {
  const base = {
    ...key,
    table,
    part:
      bad.part?.name ?? (table === 'quarantined_entries' ? record?.quarantine_part : record?.part) ?? null,
    problem: bad.problem,
    detail: bad.detail,
  };
  if (bad.problem === 'overlap') return { ...base, outcome: 'left', lost: 0 };
  const done = await withDayLease(deps, key, async (lease): Promise<DayFinding> => {
    const pruned = record?.pruned_at != null;
    if (!pruned) {
      // Every row of the day below the watermark is in the store: one part covering them all.
      await writePart(deps.duck, {
        shape,
        dir,
        lo: 0n,
        hi: below,
        pages: allPages(deps, lease, table, key, below),
        parquet: deps.parquet[table],
        scratchDir: join(deps.root, SCRATCH_DIR),
      });
      if (bad.part !== null) moveAside(deps.root, dir, bad.part.name);
      await compactDay(deps, lease);
      return { ...base, outcome: 'rebuilt', lost: 0 };
    }
    if (bad.part !== null) moveAside(deps.root, dir, bad.part.name);
    const lost = Number((table === 'quarantined_entries' ? record?.quarantined : record?.entries) ?? 0);
    await deps.store.history.markLost(key, deps.owner, lost, deps.now());
    // The day's record now holds what is left, so that pruning and later merges verify against it.
    await compactDay(deps, lease);
    return { ...base, outcome: 'lost', lost };
  });
  if (done === 'busy')
    return { ...base, detail: `${base.detail}; another worker holds the day`, outcome: 'left', lost: 0 };
  return done;
}

/** Moves a damaged part under DAMAGED_DIR (private), keeping its path below the root. */
function moveAside(root: string, dir: string, name: string): void {
  const to = join(root, DAMAGED_DIR, relative(root, dir), name);
  makeDirs(dirname(to), PRIVATE_DIR_MODE);
  renameSync(join(dir, name), to);
}

export { EMPTY_CHECKSUM };
