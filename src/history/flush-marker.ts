// The history's flush watermark: every row whose write batch is below it is in the history's parts, and
// the rows at or above it are read from the store. It is kept where the parts are, as the name of an
// empty file in the history's root, `_flushed_<n>`: a reader lists the root, takes the greatest, and
// lists the parts, so the watermark it goes by and the parts it reads agree whatever a flush does
// meanwhile (the parts of a flush are durable before its marker is made, and the older markers go only
// after). No marker: nothing was ever flushed (0).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs, syncDir, writeEmptyFile } from '../file-modes.js';

const PREFIX = '_flushed_';
const MARKER = /^_flushed_(\d{1,19})$/;

/** Pure: the marker's name. */
export function flushMarkerName(below: bigint): string {
  if (below < 0n || below > 2n ** 63n - 1n) throw new RangeError(`not a watermark: ${below}`);
  return `${PREFIX}${below}`;
}

/** Pure: the greatest watermark among a directory's names; 0 when none is a marker. */
export function watermarkOfNames(names: Iterable<string>): bigint {
  let out = 0n;
  for (const name of names) {
    const m = MARKER.exec(name);
    if (m) {
      const v = BigInt(m[1]!);
      if (v > out) out = v;
    }
  }
  return out;
}

/** The watermark recorded in `root` (0 when the root or its markers do not exist). */
export function readWatermark(root: string): bigint {
  try {
    return watermarkOfNames(readdirSync(root));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0n;
    throw err;
  }
}

/**
 * Records `below` (after the parts it covers are durable) and syncs the root, then removes the lower
 * markers (a crash between leaves two: the greatest counts).
 */
export function writeWatermark(root: string, below: bigint): void {
  // The first flush of an empty archive writes no part: the root may not exist yet.
  makeDirs(root);
  writeEmptyFile(join(root, flushMarkerName(below)));
  syncDir(root);
  for (const other of readdirSync(root)) {
    const m = MARKER.exec(other);
    if (m && BigInt(m[1]!) < below) rmSync(join(root, other), { force: true });
  }
}
