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
import { rollupKey } from '../values/storable.js';
import { pathPrefixes } from './path-prefix.js';
import type { AnyBatch } from './entry-tables.js';
import type { OriginBatch, ShieldBatch } from './rows.js';

/** A field of term_hourly: an entry column, or `path:<depth>`. */
export type TermField = string;

/** term_hourly's field for a rule's field (and depth, for a path). */
export function termField(field: string, depth?: number): TermField {
  return field === 'path' ? `path:${depth ?? 1}` : field;
}

export { pathPrefix, pathPrefixes } from './path-prefix.js';

/** The plain (non-path) fields of each source, as term_hourly names them. */
export const PLAIN_TERM_FIELDS: Record<LogSource, readonly string[]> = {
  origin: ['error_code', 'status_code'],
  shield: ['country', 'asn', 'rule_id', 'severity', 'method'],
};

/** New rows as columns (the batch's own arrays): row `i` is `timestamp[i]`, `url[i]`, `plain[f][i]`. */
export interface TermColumns {
  n: number;
  timestamp: ArrayLike<number>;
  /** Origin: request_url; Shield: url. */
  url: ArrayLike<string | null | undefined>;
  /** One column per plain field, in the order of the `plain` list given with them. */
  plain: ReadonlyArray<ArrayLike<string | number | null | undefined>>;
}

/** A batch's rows as their terms see them (the batch's own arrays, PLAIN_TERM_FIELDS order). */
export function batchTermColumns(source: LogSource, b: AnyBatch): TermColumns {
  if (source === 'origin') {
    const o = b as OriginBatch;
    return {
      n: o.logId.length,
      timestamp: o.timestamp,
      url: o.requestUrl,
      plain: [o.errorCode, o.statusCode],
    };
  }
  const s = b as ShieldBatch;
  return {
    n: s.logId.length,
    timestamp: s.timestamp,
    url: s.url,
    plain: [s.country, s.asn, s.ruleId, s.severity, s.method],
  };
}

type Raw = string | number;
// The URL's slot among the raw counts (no entry column has this name).
const URL_SLOT = ' url';

/** Counts of (hour, field, value) over new rows: one upsert per distinct key when written. */
export class TermCounter {
  // Raw values (field or URL_SLOT → hour → value → rows), nested maps, not one map of joined keys: a
  // joined key is a new long string to hash for every value of every row. A row costs one map bump per
  // value; its keys (rollupKey, the URL's three path prefixes) are made once per distinct value, in
  // entries(): a page of Shield entries names a few URLs hundreds of times.
  private readonly counts = new Map<string, Map<number, Map<Raw, number>>>();

  // The value maps of the last row's hour, one per plain field then the URL's: rows come in time order,
  // so most rows pay one map lookup per value, not three.
  private hour = Number.NaN;
  private plainOf: readonly string[] | null = null;
  private slots: Array<Map<Raw, number>> = [];

  /** Counts each row of `c` (columns, without an object per row). */
  add(c: TermColumns, plain: readonly string[]): void {
    const width = plain.length;
    if (c.plain.length !== width) throw new TypeError('TermCounter: one column per plain field');
    for (let i = 0; i < c.n; i++) {
      const hour = hourStart(c.timestamp[i]!);
      if (hour !== this.hour || plain !== this.plainOf) this.resolve(hour, plain);
      const slots = this.slots;
      for (let f = 0; f < width; f++) bump(slots[f]!, c.plain[f]![i]);
      bump(slots[width]!, c.url[i]);
    }
  }

  private resolve(hour: number, plain: readonly string[]): void {
    this.slots = [...plain, URL_SLOT].map((field) => {
      let byHour = this.counts.get(field);
      if (!byHour) this.counts.set(field, (byHour = new Map<number, Map<Raw, number>>()));
      let values = byHour.get(hour);
      if (!values) byHour.set(hour, (values = new Map<Raw, number>()));
      return values;
    });
    this.hour = hour;
    this.plainOf = plain;
  }

  /** The counts by key: each field's hours, each hour's values (two raw values may share a key). */
  *entries(): IterableIterator<{ hour: number; field: string; value: string; count: number }> {
    const keyed = new Map<string, Map<number, Map<string, number>>>();
    const add = (field: string, hour: number, value: string, n: number) => {
      let byHour = keyed.get(field);
      if (!byHour) keyed.set(field, (byHour = new Map<number, Map<string, number>>()));
      let values = byHour.get(hour);
      if (!values) byHour.set(hour, (values = new Map<string, number>()));
      values.set(value, (values.get(value) ?? 0) + n);
    };
    for (const [field, byHour] of this.counts)
      for (const [hour, values] of byHour)
        for (const [raw, n] of values) {
          if (field !== URL_SLOT) {
            add(field, hour, rollupKey(String(raw)), n);
            continue;
          }
          const prefixes = pathPrefixes(raw as string, MAX_PATH_DEPTH);
          for (let d = 0; d < MAX_PATH_DEPTH; d++) add(PATH_FIELDS[d]!, hour, rollupKey(prefixes[d]!), n);
        }
    for (const [field, byHour] of keyed)
      for (const [hour, values] of byHour)
        for (const [value, count] of values) yield { hour, field, value, count };
  }
}

/** Counts one raw value; NULL and '' are no value. */
function bump(values: Map<Raw, number>, v: Raw | null | undefined): void {
  if (v === null || v === undefined || v === '') return;
  const n = values.get(v);
  values.set(v, n === undefined ? 1 : n + 1);
}

const PATH_FIELDS = Array.from({ length: MAX_PATH_DEPTH }, (_, d) => `path:${d + 1}`);
