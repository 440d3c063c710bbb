// `edgelog compact --verify`: every part of the history checked as a reader will read it, and against the
// record the merge wrote (history_days: the part's name and its keys' checksum), then repaired where it
// can be. A day whose rows the store still holds (not pruned) gets its part written again from the store,
// which covers every part below the watermark (parts.ts), and is merged again. A pruned day's damaged or
// missing part cannot be: its file is moved aside (out of every reader's way: one unreadable part fails
// every query that reads its table) and its entries are counted as lost, in history_days.lost_entries,
// which status and /metrics show and the exit code says. One bad day never stops the others.
//
// The parts are also held against the store: below the watermark, a day not pruned holds in the store
// exactly the rows its parts hold, and a pruned day none. Anything else ('short': a flush that read its
// pages wrong, a part that lost rows) is repaired by the union: the parts' rows put back in the store,
// the day's part written again from the store, merged, and pruned again by the next pass.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { coerceError } from '../errors/index.js';
import { makeDirs, PRIVATE_DIR_MODE } from '../file-modes.js';
import type { HistoryDayKey, HistoryDayRow } from '../store/history-store.js';
import { entryShape, QUARANTINE_SHAPE, type HistoryTableShape } from '../store/history-columns.js';
import { checksumRows, EMPTY_CHECKSUM } from './checksum.js';
import { compactDay, SCRATCH_DIR, withDayLease, type HistoryDeps } from './compact-day.js';
import { allPages } from './flush.js';
import { restoreParts } from './thaw.js';
import { readWatermark } from './flush-marker.js';
import { dayDir, entryTable, type HistoryTable } from './layout.js';
import { checksumOf } from './part-file.js';
import { writePart } from './part-file.js';
import { liveParts, type Part } from './parts.js';
import { listDays, readDayDir } from './published-days.js';

/** Where damaged parts are moved, under the root (no reader lists it). */
export const DAMAGED_DIR = '.damaged';

export type PartProblem = 'missing' | 'unreadable' | 'mismatch' | 'overlap' | 'short';

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
  /** Entries counted lost by any run (history_days.lost_entries), this one's included: status's figure. */
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
    // The store's rows below the watermark, per zone-day (none before the first flush: nothing to hold).
    const stored = new Map(
      (below > 0n ? await deps.store.history.flush.daysBefore(table, below) : []).map((d) => [
        `${d.source ?? sourceOf(table)}/${d.zone}/${d.day}`,
        d.rows,
      ]),
    );
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
    // Zone-days the store holds below the watermark that no directory has.
    for (const k of stored.keys())
      if (!keys.has(k)) {
        const [source, zone, day] = k.split('/') as ['origin' | 'shield', string, string];
        const inDir = table === 'quarantined_entries' ? source : undefined;
        keys.add(k);
        dirs.push({
          zone: Number(zone),
          day,
          ...(inDir ? { source: inDir } : {}),
          dir: dayDir(deps.root, table, Number(zone), day, inDir),
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
      const { bad, rows } = await checkDay(deps, shape, d.dir, d.parts, below, record, result);
      const held = stored.get(`${source}/${d.zone}/${d.day}`) ?? 0;
      const pruned = record?.pruned_at != null;
      if (below > 0n && bad.length === 0 && held !== (pruned ? 0 : rows))
        bad.push({
          part: null,
          problem: 'short',
          detail: shortDetail(held, rows, pruned),
        });
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
        if (finding === null) continue;
        result.findings.push(finding);
        result.lost += finding.lost;
      }
    }
  }
  // Counted as status and /metrics count them (history-health.ts: merged days' records), so that the
  // figure `compact --verify` prints and exits by is theirs.
  result.lostInAll = (await deps.store.history.list())
    .filter((r) => r.compacted_at !== null)
    .reduce((n, r) => n + (r.lost_entries ?? 0), 0);
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
): Promise<{ bad: Checked[]; rows: number }> {
  let live: Part[];
  try {
    live = liveParts(parts, below);
  } catch (err) {
    return { bad: [{ part: null, problem: 'overlap', detail: coerceError(err).message }], rows: 0 };
  }
  let rows = 0;
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
    rows += checksumRows(sum);
    if (p.name === named && sum !== recordedSum)
      bad.push({
        part: p,
        problem: 'mismatch',
        detail: `its keys are ${sum}, the merge recorded ${recordedSum}`,
      });
  }
  return { bad, rows };
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
  seen: bigint,
): Promise<DayFinding | null> {
  let below = seen;
  const base = {
    ...key,
    table,
    part:
      bad.part?.name ?? (table === 'quarantined_entries' ? record?.quarantine_part : record?.part) ?? null,
    problem: bad.problem,
    detail: bad.detail,
  };
  if (bad.problem === 'overlap') return { ...base, outcome: 'left', lost: 0 };
  const done = await withDayLease(deps, key, async (lease): Promise<DayFinding | null> => {
    if (bad.problem === 'short') {
      // Looked at again under the lease (no merge or pruning of the day meanwhile) and the watermark now:
      // the first look, without either, may have met a merge or a pruning half done.
      below = readWatermark(deps.root);
      const short = await shortBy(deps, key, table, shape, dir, below);
      if (short === null) return null;
      base.detail = short;
      // The union: the parts' rows back in the store (those it holds stay as they are), the day no
      // longer pruned, and its part written again from the store below.
      await restoreParts(deps, lease, key);
      await lease.keep(true);
      await deps.store.history.unprune(key, deps.owner);
    }
    const pruned = bad.problem !== 'short' && record?.pruned_at != null;
    if (!pruned) {
      // Every row of the day below the watermark is in the store: one part covering them all.
      const before = bad.problem === 'short' ? liveParts(readDayDir(dir).parts, below) : [];
      // The damaged part goes aside just before the new one is published, not after: the new one covers
      // the same batches and timestamps, so it takes the same name, and moving that name aside afterwards
      // took the day's only good part out of every reader's way.
      let damaged = bad.part?.name ?? null;
      const moveDamaged = () => {
        if (damaged !== null) moveAside(deps.root, dir, damaged);
        damaged = null;
      };
      const written = await writePart(deps.duck, {
        shape,
        dir,
        lo: 0n,
        hi: below,
        pages: allPages(deps, lease, table, key, below),
        parquet: deps.parquet[table],
        scratchDir: join(deps.root, SCRATCH_DIR),
        beforePublish: () => Promise.resolve(moveDamaged()),
      });
      moveDamaged();
      // The parts it was written over: it may cover the same batches (no reader could tell which to take).
      for (const p of before) if (p.name !== written?.name) rmSync(join(dir, p.name), { force: true });
      if ((await compactDay(deps, lease)) === 'busy') return unmerged(base);
      return { ...base, outcome: 'rebuilt', lost: 0 };
    }
    if (bad.part !== null) moveAside(deps.root, dir, bad.part.name);
    const lost = Number((table === 'quarantined_entries' ? record?.quarantined : record?.entries) ?? 0);
    await deps.store.history.markLost(key, deps.owner, lost, deps.now());
    // The day's record now holds what is left, so that pruning and later merges verify against it.
    if ((await compactDay(deps, lease)) === 'busy') return { ...unmerged(base), outcome: 'lost', lost };
    return { ...base, outcome: 'lost', lost };
  });
  if (done === 'busy')
    return { ...base, detail: `${base.detail}; another worker holds the day`, outcome: 'left', lost: 0 };
  return done;
}

/**
 * How a zone-day's store rows below the watermark differ from its parts' (the module comment), or null
 * when they agree; the parts already checked, their rows counted by their checksums.
 */
async function shortBy(
  deps: HistoryDeps,
  key: HistoryDayKey,
  table: HistoryTable,
  shape: HistoryTableShape,
  dir: string,
  below: bigint,
): Promise<string | null> {
  const record = (await deps.store.history.list({ source: key.source, zone: key.zone })).find(
    (r) => r.log_date === key.day,
  );
  const pruned = record?.pruned_at != null;
  let rows = 0;
  for (const p of liveParts(readDayDir(dir).parts, below))
    rows += checksumRows(await checksumOf(deps.duck, shape, join(dir, p.name)));
  const held =
    (await deps.store.history.flush.daysBefore(table, below)).find(
      (d) => d.zone === key.zone && d.day === key.day && (d.source ?? key.source) === key.source,
    )?.rows ?? 0;
  return held === (pruned ? 0 : rows) ? null : shortDetail(held, rows, pruned);
}

const shortDetail = (held: number, rows: number, pruned: boolean) =>
  `the store holds ${held} of the day's rows below the watermark, its parts ${rows}` +
  (pruned ? ' (pruned: the store should hold none)' : '');

/** Moves a damaged part under DAMAGED_DIR (private), keeping its path below the root. */
function moveAside(root: string, dir: string, name: string): void {
  const to = join(root, DAMAGED_DIR, relative(root, dir), name);
  makeDirs(dirname(to), PRIVATE_DIR_MODE);
  renameSync(join(dir, name), to);
}

export { EMPTY_CHECKSUM };

/**
 * A repair whose merge waits: rows of the day are still above the flush watermark (another worker's
 * flush holds them), so the day's record is left as it was until a later compaction merges it.
 */
function unmerged<T extends { detail: string }>(base: T): T & { outcome: 'left'; lost: number } {
  return {
    ...base,
    detail: `${base.detail}; its merge waits for rows above the flush watermark (run compact again)`,
    outcome: 'left',
    lost: 0,
  };
}
