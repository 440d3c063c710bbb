// Pure: the values a new-term rule asks about, taken from each new row while a page is stored, so that
// "was this value seen in this zone before?" is answered from a small per-hour table (term_hourly)
// instead of the entries. Every writer (both stores, the migration's backfill) keys values alike:
// - a value is the entry's column as text (status codes as their digits); NULL and '' are no value;
// - a path prefix is the first 1–MAX_PATH_DEPTH segments of the URL's path, scheme, host, query and
//   fragment dropped, written `/a/b` (`/` for a URL with no path), one field per depth (`path:2`);
// - every value goes through storable.ts rollupKey, as the rollups' keys do, so a hostile 100 KB URL
//   is counted under a bounded key.
import { MAX_PATH_DEPTH } from '../config/schema.js';
import { hourStart } from './hourly-rollup.js';
import type { LogSource } from './ledger-types.js';
import { rollupKey } from './storable.js';

/** A field of term_hourly: an entry column, or `path:<depth>`. */
export type TermField = string;

/** term_hourly's field for a rule's field (and depth, for a path). */
export function termField(field: string, depth?: number): TermField {
  return field === 'path' ? `path:${depth ?? 1}` : field;
}

const SCHEME_AND_HOST = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The first `depth` segments of a URL's path: `https://h/a/b/c?x=1` → `/a/b` at depth 2; empty segments
 * are skipped (`//a` is `/a`), and a URL with none gives `/`.
 */
export function pathPrefix(url: string, depth: number): string {
  let path = url.replace(SCHEME_AND_HOST, '');
  const cut = path.search(/[?#]/);
  if (cut >= 0) path = path.slice(0, cut);
  const segments: string[] = [];
  for (const s of path.split('/')) {
    if (s === '') continue;
    segments.push(s);
    if (segments.length === depth) break;
  }
  return `/${segments.join('/')}`;
}

/** The parts of a new row a term is taken from (null where the entry has none). */
export interface TermRow {
  timestamp: number;
  /** Origin: request_url; Shield: url. */
  url: string | null;
  /** Column name → value, for the plain fields of the row's source. */
  fields: Readonly<Record<string, string | number | null>>;
}

/** The plain (non-path) fields of each source, as term_hourly names them. */
export const PLAIN_TERM_FIELDS: Record<LogSource, readonly string[]> = {
  origin: ['error_code', 'status_code'],
  shield: ['country', 'asn', 'rule_id', 'severity', 'method'],
};

/** Counts of (hour, field, value) over new rows: one upsert per distinct key when written. */
export class TermCounter {
  private readonly counts = new Map<string, { hour: number; field: string; value: string; count: number }>();

  add(row: TermRow, plain: readonly string[]): void {
    const hour = hourStart(row.timestamp);
    for (const field of plain) {
      const v = row.fields[field];
      if (v === null || v === undefined || v === '') continue;
      this.bump(hour, field, rollupKey(String(v)));
    }
    if (row.url === null || row.url === '') return;
    for (let depth = 1; depth <= MAX_PATH_DEPTH; depth++)
      this.bump(hour, `path:${depth}`, rollupKey(pathPrefix(row.url, depth)));
  }

  private bump(hour: number, field: string, value: string): void {
    // U+0000 is in no stored value (storable.ts), so it separates the parts unambiguously.
    const key = `${hour}\u0000${field}\u0000${value}`;
    const slot = this.counts.get(key);
    if (slot) slot.count++;
    else this.counts.set(key, { hour, field, value, count: 1 });
  }

  get size(): number {
    return this.counts.size;
  }

  *entries(): IterableIterator<{ hour: number; field: string; value: string; count: number }> {
    yield* this.counts.values();
  }
}
