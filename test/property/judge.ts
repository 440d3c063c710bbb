// An independent judge of what a decoded page must hold, written from the README's rules and not from the
// decoder's code: an element without a usable key is rejected; one with a key is a row when every text it
// holds is text a store can keep (no U+0000, no lone surrogate, anywhere in it), its logId fits a key
// and nothing in it is nested too deep; the rest of the keyed ones may be either, and when rejected say
// why in a storability reason.
import { isDeepStrictEqual as isEqual } from 'node:util';
import { expect } from 'vitest';
import type { RejectedEntry } from '../../src/store/rows.js';
import { keyable } from './arbitraries.js';

const MAX_KEY_BYTES = 2048;
const MAX_NESTING = 256;

const bad = (s: string) => s.includes('\u0000') || /\p{Surrogate}/u.test(s);

/** Every string in `value` (keys too), and in a string that is JSON, is text a store can keep. */
function cleanValue(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (bad(v)) return false;
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        continue;
      }
      if (typeof parsed === 'object' && parsed !== null) stack.push(parsed);
      else if (typeof parsed === 'string' && bad(parsed)) return false;
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, c] of Object.entries(v)) {
        if (bad(k)) return false;
        stack.push(c);
      }
    }
  }
  return true;
}

function depth(root: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    max = Math.max(max, d + 1);
    for (const c of Object.values(v)) stack.push([c, d + 1]);
  }
  return max;
}

/** Keyable, and plainly storable: the judge's "must be a row". */
export function plainlyStorable(entry: unknown): entry is { logId: string; timestamp: number } {
  if (!keyable(entry)) return false;
  const e = entry as Record<string, unknown>;
  return (
    Buffer.byteLength(e.logId as string) <= MAX_KEY_BYTES &&
    depth(e.labels) <= MAX_NESTING &&
    (typeof e.log === 'string' || depth(e.log) <= MAX_NESTING) &&
    cleanValue(e.logId) &&
    cleanValue(e.log ?? null) &&
    cleanValue(e.labels ?? null)
  );
}

const STORABILITY = /: (holds U\+0000|holds a lone surrogate|nested deeper than|\d+ bytes long, longer than)/;

/**
 * What a batch must hold for the elements of `logs` (positions counting across the page): each element
 * a row or a rejected entry at its place, in order; unkeyable ones rejected, plainly storable ones rows,
 * other keyed ones rejected only for a storability reason; a rejected entry's raw is its JSON.
 */
export function expectSorted(
  batch: { logId: string[]; timestamp: number[]; log: Array<string | null>; rejected: RejectedEntry[] },
  logs: readonly unknown[],
): void {
  const positions = batch.rejected.map((r) => r.position);
  expect(positions).toEqual([...new Set(positions)].sort((a, b) => a - b));
  const rejected = new Map(batch.rejected.map((r) => [r.position, r]));
  const rows = logs.filter((_, i) => !rejected.has(i)) as Array<Record<string, unknown>>;
  logs.forEach((e, i) => {
    const r = rejected.get(i);
    if (!keyable(e)) expect(r, `element ${i} has no usable key`).toBeDefined();
    else if (plainlyStorable(e)) expect(r, `element ${i} is plainly storable`).toBeUndefined();
    else if (r) expect(r.reason).toMatch(STORABILITY);
    if (r) {
      expect(r.reason.length).toBeGreaterThan(0);
      // Its JSON: the text as received (origin), or written again (Shield: a number beyond a double's
      // range, Infinity once parsed, is then null).
      const raw = JSON.parse(r.raw) as unknown;
      if (depth(e) < 1000 && !isEqual(raw, e)) expect(raw).toEqual(JSON.parse(JSON.stringify(e)));
    }
  });
  expect(batch.logId).toEqual(rows.map((e) => e.logId));
  expect(batch.timestamp).toEqual(rows.map((e) => e.timestamp));
  const log = (e: Record<string, unknown>) =>
    e.log === undefined || e.log === null ? null : typeof e.log === 'string' ? e.log : JSON.stringify(e.log);
  expect(batch.log).toEqual(rows.map(log));
}
