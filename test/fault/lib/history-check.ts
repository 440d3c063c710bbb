// What the history's fault scenarios check (test/fault/scenarios/history.ts, two-workers-history.ts): each
// zone-day's rows as a reader reads them — the live parts below the flush watermark (by DuckDB) and the
// store's rows at or above it — equal to the simulator's oracle, each once; history_days claiming only
// what its parts hold; and on PostgreSQL, the day partitions pruning emptied gone.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { readWatermark } from '../../../src/history/flush-marker.js';
import { checksumOf } from '../../../src/history/part-file.js';
import { dayDir, entryTable, isTempFile } from '../../../src/history/layout.js';
import { liveParts } from '../../../src/history/parts.js';
import { readDayDir } from '../../../src/history/published-days.js';
import type { SimSource } from '../../../src/simulator/index.js';
import { entryShape, QUARANTINE_SHAPE } from '../../../src/store/history-columns.js';
import { addDays, dayOf } from '../../../src/time/utc-day.js';
import type { ArchiveReader } from '../../support/archive-reader.js';
import type { Scene } from './scene.js';

export interface HistoryDayRef {
  source: SimSource;
  zone: number;
  day: string;
}

/** The live parts of a table-zone-day below the watermark (parts.ts), as paths. */
function liveFiles(dir: string, below: bigint): string[] {
  return liveParts(readDayDir(dir).parts, below).map((p) => join(dir, p.name));
}

/** What does not hold of the zone-days `refs` (an empty list when all does). */
export async function historyProblems(
  duck: DuckDBConnection,
  reader: ArchiveReader,
  scene: Scene,
  root: string,
  refs: readonly HistoryDayRef[],
): Promise<string[]> {
  const found: string[] = [];
  const recorded = await reader.all<{
    source: SimSource;
    zone_id: number;
    log_date: string;
    entries: number | null;
    checksum: string | null;
    quarantined: number | null;
    quarantine_checksum: string | null;
    compacted_at: number | null;
    part: string | null;
    quarantine_part: string | null;
  }>('SELECT * FROM history_days');
  const below = readWatermark(root);
  for (const ref of refs) {
    const name = `${ref.source} ${ref.zone} ${ref.day}`;
    const sim = scene.sim.entries(ref.source, ref.zone, ref.day as never, scene.now());
    const want = sim
      .filter((e) => e.keyable)
      .map((e) => `${e.timestamp} ${e.logId}`)
      .sort();
    const wantQuarantined = sim.length - want.length;
    const table = entryTable(ref.source);
    const zoneCol = ref.source === 'origin' ? 'pull_zone_id' : 'shield_zone_id';
    // The store's rows a reader reads: those of a batch at or above the watermark (before the first
    // flush, all of them).
    const tail = below === 0n ? 'true' : `batch >= ${below}`;
    const stored = (
      await reader.all<{ k: string }>(
        `SELECT timestamp || ' ' || log_id AS k FROM ${table} WHERE ${zoneCol} = ? AND log_date = ? AND ${tail}`,
        ref.zone,
        ref.day,
      )
    ).map((r) => r.k);
    const dir = dayDir(root, table, ref.zone, ref.day);
    const files = below === 0n ? [] : liveFiles(dir, below);
    const inParts: string[] = [];
    for (const f of files) inParts.push(...(await keysOf(duck, f)));
    const readable = [...inParts, ...stored].sort();
    if (!same(readable, want))
      found.push(
        `${name}: readers read ${readable.length} rows (${inParts.length} from ${files.length} parts, ${stored.length} from the store), ${new Set(readable).size} distinct; the oracle has ${want.length}`,
      );
    const qDir = dayDir(root, 'quarantined_entries', ref.zone, ref.day, ref.source);
    const qStored = await reader.all<{ n: number }>(
      `SELECT count(*) AS n FROM quarantined_entries WHERE source = ? AND zone_id = ? AND log_date = ? AND ${tail}`,
      ref.source,
      ref.zone,
      ref.day,
    );
    let qReadable = Number(qStored[0]!.n);
    for (const f of below === 0n ? [] : liveFiles(qDir, below))
      qReadable += (await keysOf(duck, f, 'page')).length;
    if (qReadable !== wantQuarantined)
      found.push(`${name}: ${qReadable} quarantined entries readable, the oracle has ${wantQuarantined}`);
    // What history_days claims is what its parts hold.
    const row = recorded.find(
      (r) => r.source === ref.source && r.zone_id === ref.zone && r.log_date === ref.day,
    );
    if (row?.compacted_at != null) {
      if (
        row.part &&
        (!existsSync(join(dir, row.part)) ||
          (await checksumOf(duck, entryShape(ref.source), join(dir, row.part))) !== row.checksum)
      )
        found.push(`${name}: history_days claims a part that is missing or differs`);
      if (
        row.quarantine_part &&
        (!existsSync(join(qDir, row.quarantine_part)) ||
          (await checksumOf(duck, QUARANTINE_SHAPE, join(qDir, row.quarantine_part))) !==
            row.quarantine_checksum)
      )
        found.push(`${name}: history_days claims a quarantine part that is missing or differs`);
    }
  }
  return found;
}

async function keysOf(
  duck: DuckDBConnection,
  file: string,
  kind: 'entry' | 'page' = 'entry',
): Promise<string[]> {
  const cols = kind === 'entry' ? `timestamp || ' ' || log_id` : `page || ' ' || position`;
  const r = await duck.runAndReadAll(
    `SELECT ${cols} AS k FROM read_parquet('${file.replaceAll("'", "''")}', hive_partitioning = false)`,
  );
  return r
    .getRows()
    .map((row) => String(row[0]))
    .sort();
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** Temporary files (a killed writer's) under `dir`. */
export function countTemps(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    // A writer's temporaries live in a private folder of the temp prefix (part-file.ts): one per writer.
    if ((entry.isFile() || entry.isDirectory()) && isTempFile(entry.name)) n++;
  return n;
}

/** Days recorded compacted, and pruned, in history_days. */
export async function countStates(reader: ArchiveReader): Promise<{ compacted: number; pruned: number }> {
  const rows = await reader.all<{ c: number; p: number }>(
    'SELECT count(compacted_at) AS c, count(pruned_at) AS p FROM history_days',
  );
  return { compacted: Number(rows[0]!.c), pruned: Number(rows[0]!.p) };
}

/** The day partitions of the partitioned tables (PostgreSQL). */
export async function partitions(reader: ArchiveReader): Promise<string[]> {
  const rows = await reader.all<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent IN ('origin_error_logs'::regclass, 'shield_event_logs'::regclass,
                           'quarantined_entries'::regclass)
     ORDER BY 1`,
  );
  return rows.map((r) => r.name).filter((n) => PARTITION.test(n));
}

const PARTITION = /^(origin_error_logs|shield_event_logs|quarantined_entries)_(\d{4})(\d{2})(\d{2})$/;

/**
 * After a compact that completed (PostgreSQL): no day partition before `before` is empty, as pruning
 * drops those it emptied; and with `allOriginPruned` (every origin day of the archive was), no partition
 * of origin_error_logs before it is left. `before`: yesterday, the first day a store makes ahead
 * (daysAround), or the first day a worker still fetches (a Shield day's pages make the day's partition of
 * every table). @defaultValue yesterday
 */
export async function partitionProblems(
  reader: ArchiveReader,
  opts: { allOriginPruned: boolean; before?: string },
): Promise<string[]> {
  const found: string[] = [];
  const before = (opts.before ?? addDays(dayOf(Date.now()), -1)).replaceAll('-', '');
  for (const name of await partitions(reader)) {
    const m = PARTITION.exec(name)!;
    if (`${m[2]}${m[3]}${m[4]}` >= before) continue;
    if (opts.allOriginPruned && m[1] === 'origin_error_logs')
      found.push(`${name} is left though every origin day was pruned`);
    // The name comes from the catalogue and matched PARTITION: a plain identifier.
    const rows = await reader.all<{ n: number }>(`SELECT count(*) AS n FROM ${name}`);
    if (Number(rows[0]!.n) === 0) found.push(`partition ${name} is left empty after pruning`);
  }
  return found;
}

/** The day partitions now (PostgreSQL), through a reader of the scene's closed afterwards. */
export async function partitionNames(scene: Scene): Promise<string[]> {
  try {
    return await partitions(await scene.reader());
  } finally {
    await scene.closeReaders();
  }
}
