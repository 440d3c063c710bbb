// Pure: the history's parts and which of them a reader reads.
//
// A part is an immutable Parquet file in a table-zone-day's directory holding every row of that zone-day
// whose write batch (migrations/sqlite/0012) lies in [lo, hi). Its name says so, and the least and
// greatest `timestamp` it holds (entry tables): `part-<lo>-<hi>_<min>_<max>.parquet`, or
// `part-<lo>-<hi>.parquet` for the quarantine. A flush writes the rows of the batches [F, H) as one part
// per zone-day; a merge replaces parts with one covering their union, published before they are
// removed. So a directory may hold, for a while, a part and the parts it covers: a reader takes the
// widest, as ClickHouse takes a merged part over the parts it covers.
//
// Only the parts below the history's flush watermark count (flush-marker.ts): a part above it was written
// by a flush that had not finished, whose rows the reader still reads from the store.
export interface PartName {
  /** The first batch it covers. */
  lo: bigint;
  /** The first batch past it. */
  hi: bigint;
  /** The least and greatest `timestamp` of its rows (entry tables; none for the quarantine). */
  time?: { min: bigint; max: bigint };
}

export interface Part extends PartName {
  /** The file's name in its directory. */
  name: string;
}

const PART = /^part-(\d{1,19})-(\d{1,19})(?:_(-?\d{1,19})_(-?\d{1,19}))?\.parquet$/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

const int64 = (v: bigint) => v >= INT64_MIN && v <= INT64_MAX;

export class PartOverlapError extends Error {
  override name = 'PartOverlapError';
}

/** Pure: the file name of a part. */
export function partName(p: PartName): string {
  if (p.lo < 0n || p.hi <= p.lo || !int64(p.hi)) throw new RangeError(`not a batch range: ${p.lo}..${p.hi}`);
  if (p.time === undefined) return `part-${p.lo}-${p.hi}.parquet`;
  const { min, max } = p.time;
  if (!int64(min) || !int64(max) || min > max) throw new RangeError(`not a timestamp range: ${min}..${max}`);
  return `part-${p.lo}-${p.hi}_${min}_${max}.parquet`;
}

/** Pure: the part a directory entry's name is, or null (a temporary file, a marker, anything else). */
export function parsePart(name: string): Part | null {
  const m = PART.exec(name);
  if (!m) return null;
  const lo = BigInt(m[1]!);
  const hi = BigInt(m[2]!);
  if (hi <= lo || !int64(hi)) return null;
  if (m[3] === undefined) return { name, lo, hi };
  const min = BigInt(m[3]);
  const max = BigInt(m[4]!);
  if (!int64(min) || !int64(max) || min > max) return null;
  return { name, lo, hi, time: { min, max } };
}

/**
 * Pure: the parts a reader reads among a directory's, given the flush watermark `below`: those wholly
 * below it, minus any another of them covers. Two that overlap without one covering the other cannot
 * both be true of the rows: PartOverlapError names them rather than count a row twice.
 */
export function liveParts(parts: readonly Part[], below: bigint): Part[] {
  const candidates = parts
    .filter((p) => p.hi <= below)
    .sort((a, b) => (a.lo !== b.lo ? (a.lo < b.lo ? -1 : 1) : a.hi > b.hi ? -1 : a.hi < b.hi ? 1 : 0));
  const live: Part[] = [];
  for (const p of candidates) {
    const last = live[live.length - 1];
    if (last !== undefined && p.lo < last.hi) {
      if (p.hi <= last.hi) continue; // covered: merged into `last`, and not removed yet
      throw new PartOverlapError(`${last.name} and ${p.name} overlap without one covering the other`);
    }
    live.push(p);
  }
  return live;
}

/** Pure: the parts of a directory above the watermark (a flush that did not finish wrote them). */
export function partsAbove(parts: readonly Part[], below: bigint): Part[] {
  return parts.filter((p) => p.hi > below);
}

/** Pure: the parts `live` covers that are still there (a merge's inputs, left by a crash). */
export function coveredParts(parts: readonly Part[], live: readonly Part[]): Part[] {
  const kept = new Set(live.map((p) => p.name));
  return parts.filter(
    (p) => !kept.has(p.name) && live.some((l) => l.lo <= p.lo && p.hi <= l.hi && l.name !== p.name),
  );
}

/** Pure: the union of parts' timestamp ranges; null when one has none. */
export function timeOf(parts: readonly Part[]): { min: bigint; max: bigint } | null {
  let out: { min: bigint; max: bigint } | null = null;
  for (const p of parts) {
    if (p.time === undefined) return null;
    out =
      out === null
        ? { ...p.time }
        : {
            min: p.time.min < out.min ? p.time.min : out.min,
            max: p.time.max > out.max ? p.time.max : out.max,
          };
  }
  return out;
}
