// Merges the live parts of one table-zone-day (parts.ts) into one part covering them all, its rows in
// time order (what compresses best and what a reader of a time range skips by), verified against the
// parts it replaces (the same keys, each once), published under its own name, and only then are the
// parts it covers removed: a reader sees the old parts or the new one (it takes the widest), never
// neither. One part already alone, and in order, is left as it is.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { HistoryTableShape } from '../store/history-columns.js';
import { checksumRows, EMPTY_CHECKSUM } from './checksum.js';
import type { ParquetOptions } from './parquet-options.js';
import { coveredParts, liveParts, type Part } from './parts.js';
import { checksumOf, writePart } from './part-file.js';
import { readDayDir } from './published-days.js';

export interface MergeInput {
  shape: HistoryTableShape;
  dir: string;
  /** The flush watermark: only the parts below it are the day's (parts.ts). */
  below: bigint;
  parquet: ParquetOptions;
  scratchDir?: string;
  beforePublish?: () => Promise<void>;
  onRows?: (n: number) => void;
  /** The part an earlier merge wrote (history_days.part): alone, it is not written again. */
  merged?: string | null;
}

export interface Merged {
  /** The day's one part now, or null when it has no rows. */
  name: string | null;
  rows: number;
  bytes: number;
  checksum: string;
}

/** Merges the day's parts (the module comment); the result describes the one part left. */
export async function mergeParts(duck: DuckDBConnection, input: MergeInput): Promise<Merged> {
  const { parts } = readDayDir(input.dir);
  const live = liveParts(parts, input.below);
  removeCovered(input.dir, parts, live);
  if (live.length === 0) return { name: null, rows: 0, bytes: 0, checksum: EMPTY_CHECKSUM };
  if (live.length === 1 && live[0]!.name === input.merged) {
    const only = live[0]!;
    const file = join(input.dir, only.name);
    const checksum = await checksumOf(duck, input.shape, file);
    return { name: only.name, rows: checksumRows(checksum), bytes: fileSize(file), checksum };
  }
  const written = await writePart(duck, {
    shape: input.shape,
    dir: input.dir,
    lo: live[0]!.lo,
    hi: live[live.length - 1]!.hi,
    files: live.map((p) => join(input.dir, p.name)),
    parquet: input.parquet,
    sorted: true,
    ...(input.scratchDir ? { scratchDir: input.scratchDir } : {}),
    ...(input.beforePublish ? { beforePublish: input.beforePublish } : {}),
  });
  // The inputs are covered by what was written (its range is theirs): readers take it from now on.
  const after = readDayDir(input.dir).parts;
  removeCovered(input.dir, after, liveParts(after, input.below));
  input.onRows?.(written?.rows ?? 0);
  return written === null
    ? { name: null, rows: 0, bytes: 0, checksum: EMPTY_CHECKSUM }
    : { name: written.name, rows: written.rows, bytes: written.bytes, checksum: written.checksum };
}

/** Removes the parts `live` covers (a merge's inputs, left by this merge or one killed after publishing). */
function removeCovered(dir: string, parts: readonly Part[], live: readonly Part[]): void {
  for (const p of coveredParts(parts, live)) rmSync(join(dir, p.name), { force: true });
}

function fileSize(path: string): number {
  return statSync(path).size;
}
