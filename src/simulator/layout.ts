// Pure placement of entries in time. A zone-day is a list of segments (the day's base entries, then one
// per spike touching the day); within a segment timestamps never decrease, so "what is logged by instant
// t" is a prefix of each segment, found by binary search without generating the entries.
import { keyed, unit } from './prng.js';

/** A run of `total` entries spread over [start, start + span); a day may hold only part of it. */
export interface Spread {
  start: number;
  span: number;
  total: number;
  /** Keyed-sequence key of the per-entry jitter. */
  timeKey: number;
}

/**
 * Timestamp of entry `k` of a spread: entry k sits at start + floor((k + u_k) * span / total) with u_k in
 * [0, 1), so each entry has its own slot and the sequence never decreases.
 */
export function spreadTime(s: Spread, k: number): number {
  const u = unit(keyed(s.timeKey, k));
  return s.start + Math.min(s.span - 1, Math.floor(((k + u) / s.total) * s.span));
}

/** The first index in [lo, hi) for which `pred` holds (pred must go false → true), or hi. */
export function lowerBound(lo: number, hi: number, pred: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The indexes [first, end) of a spread whose timestamps fall in [from, to). */
export function spreadRange(s: Spread, from: number, to: number): { first: number; end: number } {
  const first = lowerBound(0, s.total, (k) => spreadTime(s, k) >= from);
  const end = lowerBound(first, s.total, (k) => spreadTime(s, k) >= to);
  return { first, end };
}

/** A segment of one zone-day: entries [first, first + size) of a spread. */
export interface Segment {
  /** 0 for the day's base entries, 1 + i for spike i of the options. Stable: tokens carry it. */
  id: number;
  spread: Spread;
  first: number;
  size: number;
}

/** Timestamp of the segment's entry `i` (0-based within the segment). */
export function segmentTime(seg: Segment, i: number): number {
  return spreadTime(seg.spread, seg.first + i);
}

/** How many of the segment's entries are logged at instant `at` (timestamp <= at): a prefix. */
export function visiblePrefix(seg: Segment, at: number): number {
  if (seg.size === 0) return 0;
  if (segmentTime(seg, seg.size - 1) <= at) return seg.size;
  return lowerBound(0, seg.size, (i) => segmentTime(seg, i) > at);
}
