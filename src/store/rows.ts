// The rows the archive stores, and a page's rows in columns (one array per field instead of one object
// per row: a thousand fewer allocations a page on the hot path). The store owns these types; ingestion
// builds them (src/ingest/parse-entries.ts) and hands them down.
import type { RejectedEntry } from '../api/schemas/log-pages.js';

export type { RejectedEntry };

export interface OriginRow {
  logId: string;
  timestamp: number;
  requestUrl: string | null;
  message: string | null;
  errorCode: string | null;
  statusCode: number | null;
  serverZone: string | null;
  log: string | null;
  /** The labels object as JSON text. */
  labels: string | null;
  parseError: string | null;
}

export interface ShieldRow {
  logId: string;
  timestamp: number;
  asn: string | null;
  country: string | null;
  ruleId: string | null;
  severity: string | null;
  method: string | null;
  ruleGroup: string | null;
  status: string | null;
  serverZone: string | null;
  url: string | null;
  remoteIp: string | null;
  message: string | null;
  log: string | null;
  parseError: string | null;
  /** Labels beyond the eight documented ones, as JSON text; null when there are none. */
  extraLabels: string | null;
}

export type Columns<Row> = { -readonly [K in keyof Row]: Array<Row[K]> };

/** A page's rows in columns, and the entries of the page that could not be keyed. */
export type OriginBatch = Columns<OriginRow> & { rejected: RejectedEntry[] };
export type ShieldBatch = Columns<ShieldRow> & { rejected: RejectedEntry[] };

export const ORIGIN_FIELDS = [
  'logId',
  'timestamp',
  'requestUrl',
  'message',
  'errorCode',
  'statusCode',
  'serverZone',
  'log',
  'labels',
  'parseError',
] as const satisfies ReadonlyArray<keyof OriginRow>;

export const SHIELD_FIELDS = [
  'logId',
  'timestamp',
  'asn',
  'country',
  'ruleId',
  'severity',
  'method',
  'ruleGroup',
  'status',
  'serverZone',
  'url',
  'remoteIp',
  'message',
  'log',
  'parseError',
  'extraLabels',
] as const satisfies ReadonlyArray<keyof ShieldRow>;

function empty<Row>(fields: ReadonlyArray<keyof Row>): Columns<Row> & { rejected: RejectedEntry[] } {
  const columns = Object.fromEntries(fields.map((f) => [f, []])) as unknown as Columns<Row>;
  return Object.assign(columns, { rejected: [] as RejectedEntry[] });
}

function push<Row>(batch: Columns<Row>, fields: ReadonlyArray<keyof Row>, row: Row): void {
  for (const f of fields) (batch[f] as unknown[]).push(row[f]);
}

function rowAt<Row>(batch: Columns<Row>, fields: ReadonlyArray<keyof Row>, i: number): Row {
  return Object.fromEntries(fields.map((f) => [f, batch[f][i]])) as Row;
}

export const emptyOriginBatch = (): OriginBatch => empty<OriginRow>(ORIGIN_FIELDS);
export const emptyShieldBatch = (): ShieldBatch => empty<ShieldRow>(SHIELD_FIELDS);
export const pushOrigin = (b: OriginBatch, row: OriginRow): void => push(b, ORIGIN_FIELDS, row);
export const pushShield = (b: ShieldBatch, row: ShieldRow): void => push(b, SHIELD_FIELDS, row);
export const originRowAt = (b: OriginBatch, i: number): OriginRow => rowAt(b, ORIGIN_FIELDS, i);
export const shieldRowAt = (b: ShieldBatch, i: number): ShieldRow => rowAt(b, SHIELD_FIELDS, i);

export function originBatch(rows: readonly OriginRow[]): OriginBatch {
  const b = emptyOriginBatch();
  for (const r of rows) pushOrigin(b, r);
  return b;
}

export function shieldBatch(rows: readonly ShieldRow[]): ShieldBatch {
  const b = emptyShieldBatch();
  for (const r of rows) pushShield(b, r);
  return b;
}

export function batchLength(batch: { logId: readonly string[] }): number {
  return batch.logId.length;
}
