// What the history's fault scenarios check (test/fault/scenarios/history.ts, two-workers-history.ts): each
// zone-day's rows whole, read from its published file where there is one (by DuckDB) and else from the
// store, equal to the simulator's oracle; a pruned row always in its file; history_days claiming only what
// the files hold; and on PostgreSQL, the day partitions pruning emptied gone.
import { existsSync, readdirSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { checksumOf } from '../../../src/history/day-file.js';
import { dataFile, entryTable, isTempFile } from '../../../src/history/layout.js';
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
  }>('SELECT * FROM history_days');
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
    const stored = (
      await reader.all<{ k: string }>(
        `SELECT timestamp || ' ' || log_id AS k FROM ${table} WHERE ${zoneCol} = ? AND log_date = ?`,
        ref.zone,
        ref.day,
      )
    )
      .map((r) => r.k)
      .sort();
    const file = dataFile(root, table, ref.zone, ref.day);
    const inFile = existsSync(file) ? await keysOf(duck, file) : null;
    // Readable rows: the file's if published, else the store's; they must be the oracle's exactly.
    const readable = inFile ?? stored;
    if (!same(readable, want))
      found.push(
        `${name}: ${inFile ? 'its file' : 'the store'} holds ${readable.length} rows, the oracle ${want.length}`,
      );
    // Rows pruned from the store are all in the file.
    if (inFile === null && stored.length < want.length)
      found.push(`${name}: rows left the store with no file`);
    if (inFile !== null && stored.some((k) => !inFile.includes(k)) && stored.length !== want.length)
      found.push(`${name}: the store holds rows its file lacks`);
    const qFile = dataFile(root, 'quarantined_entries', ref.zone, ref.day, ref.source);
    const qStored = await reader.all<{ n: number }>(
      'SELECT count(*) AS n FROM quarantined_entries WHERE source = ? AND zone_id = ? AND log_date = ?',
      ref.source,
      ref.zone,
      ref.day,
    );
    const qReadable = existsSync(qFile) ? (await keysOf(duck, qFile, 'page')).length : Number(qStored[0]!.n);
    if (qReadable !== wantQuarantined)
      found.push(`${name}: ${qReadable} quarantined entries readable, the oracle has ${wantQuarantined}`);
    // What history_days claims is what the files hold.
    const row = recorded.find(
      (r) => r.source === ref.source && r.zone_id === ref.zone && r.log_date === ref.day,
    );
    if (row?.compacted_at != null) {
      if (
        row.entries &&
        (!existsSync(file) || (await checksumOf(duck, entryShape(ref.source), file)) !== row.checksum)
      )
        found.push(`${name}: history_days claims a file that is missing or differs`);
      if (
        row.quarantined &&
        (!existsSync(qFile) || (await checksumOf(duck, QUARANTINE_SHAPE, qFile)) !== row.quarantine_checksum)
      )
        found.push(`${name}: history_days claims a quarantine file that is missing or differs`);
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
    if (entry.isFile() && isTempFile(entry.name)) n++;
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
