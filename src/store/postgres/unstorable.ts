// Pure: rows PostgreSQL cannot store as they are. Its text type refuses U+0000, which JSON allows in a
// string (`\u0000`) and SQLite keeps; such a row would fail its whole page, page after page. Instead it
// is quarantined like an entry that cannot be keyed (so it is accounted for, and fetching the page again
// adds nothing), with the row as JSON (U+0000 escaped) and the reason.
import type { RejectedEntry } from '../rows.js';
import type { AnyBatch, EntryTable } from './entry-tables.js';

export const NUL_REASON = 'a text field holds U+0000, which PostgreSQL cannot store';

/** Rows with U+0000 in any text field, by index. */
export function rowsWithNul(t: EntryTable, b: AnyBatch): number[] {
  const byField = b as unknown as Record<string, Array<string | number | null>>;
  const found = new Set<number>();
  for (const f of t.fields) {
    const col = byField[f]!;
    for (let i = 0; i < col.length; i++) {
      const v = col[i];
      if (typeof v === 'string' && v.includes('\u0000')) found.add(i);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The batch without rows `drop`, their rows moved to `rejected`. Their position is -(index + 1) in the
 * batch: the page's own positions are never negative, and the same page fetched again gives the same.
 */
export function withoutRows(t: EntryTable, b: AnyBatch, drop: readonly number[]): AnyBatch {
  if (drop.length === 0) return b;
  const skip = new Set(drop);
  const byField = b as unknown as Record<string, Array<string | number | null>>;
  const out: Record<string, unknown> = {};
  for (const f of t.fields) out[f] = byField[f]!.filter((_, i) => !skip.has(i));
  const moved: RejectedEntry[] = drop.map((i) => ({
    position: -(i + 1),
    raw: JSON.stringify(Object.fromEntries(t.fields.map((f) => [f, byField[f]![i]]))),
    reason: NUL_REASON,
  }));
  out.rejected = [...b.rejected, ...moved];
  return out as unknown as AnyBatch;
}

/** A message (an error, a reason) made storable: U+0000 written as the escape `\\u0000`. */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\\u0000') : text;
}
