// Pages as the API sends them (JSON text, element by element), decoded by ingestion's own decoders and
// stored through a store's storePage, as a day job does; and the archive read back column by column, so
// that two stores' archives can be compared whole. Used by the value-rule tests and the store-agreement
// property, on SQLite and PostgreSQL alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GUARDIAN_COUNTER_COLUMNS } from '../../src/values/guardian-counters.js';
import { decodeShieldPage, OriginBodyDecoder } from '../../src/ingest/decode-page.js';
import { openStore } from '../../src/store/open-store.js';
import { ORIGIN_FIELDS, SHIELD_FIELDS } from '../../src/store/rows.js';
import { ENTRY_TABLES } from '../../src/store/entry-tables.js';
import type { ArchiveStore, DayKey, LedgerRow, PageStored } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase, type TestServer } from '../postgres/support/server.js';
import { openReader, type ArchiveReader } from './archive-reader.js';

export interface OpenedStore {
  kind: 'SQLite' | 'PostgreSQL';
  store: ArchiveStore;
  reader: ArchiveReader;
  /** The SQLite file, or the PostgreSQL database's URL. */
  where: string;
  close(): Promise<void>;
}

/** A fresh SQLite archive in a temp dir (removed on close). */
export async function openSqlite(now?: () => number): Promise<OpenedStore> {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-values-'));
  const path = join(dir, 'archive.db');
  const store = await openStore({ path }, now ? { now } : {});
  const reader = await openReader({ store: 'sqlite', path });
  return {
    kind: 'SQLite',
    store,
    reader,
    where: path,
    async close() {
      await reader.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh PostgreSQL archive on `server` (dropped on close). */
export async function openPostgres(server: TestServer, now?: () => number): Promise<OpenedStore> {
  const db: TestDatabase = await createTestDatabase(server);
  try {
    const store = await openStore({ path: '', url: db.url }, now ? { now } : {});
    const reader = await openReader({ store: 'postgres', url: db.url });
    return {
      kind: 'PostgreSQL',
      store,
      reader,
      where: db.url,
      async close() {
        await reader.close();
        await store.close();
        await db.drop();
      },
    };
  } catch (err) {
    await db.drop();
    throw err;
  }
}

/** A Shield page's JSON text from its elements' texts (each as the API wrote it). */
export function shieldPageText(elements: readonly string[], next: string | null): string {
  const token = next === null ? 'null' : JSON.stringify(next);
  return `{"logs":[${elements.join(',')}],"hasMoreData":${next !== null},"continuationToken":${token},"startToken":null,"errorResponse":null}`;
}

/** An origin answer's JSON text from its elements' texts. */
export function originAnswerText(elements: readonly string[]): string {
  return `{"logs":[${elements.join(',')}]}`;
}

const OWNER = 'values-test';
const LEASE_MS = 60_000;

/**
 * One pass over a Shield day: claims it (a new pass), then decodes and stores each page's text as the
 * day job does. Returns what each page's storePage said.
 */
export async function storeShieldPass(
  store: ArchiveStore,
  key: DayKey,
  pages: ReadonlyArray<readonly string[]>,
  now: number,
): Promise<PageStored[]> {
  const claim = await store.ledger.claim(key, OWNER, now, LEASE_MS, false);
  if (claim.kind !== 'claimed') throw new Error(`the day is held by ${claim.owner}`);
  const out: PageStored[] = [];
  for (let p = 0; p < pages.length; p++) {
    const next = p + 1 < pages.length ? `t${p + 2}` : null;
    const decoded = decodeShieldPage(shieldPageText(pages[p]!, next));
    const r = await store.storePage(
      key,
      OWNER,
      { source: 'shield', batch: decoded.batch, page: p + 1, nextToken: next, pages: 1 },
      now,
      LEASE_MS,
    );
    if (r.kind !== 'stored') throw new Error('lease lost');
    out.push(r);
  }
  return out;
}

/** One pass over an origin day: its answer decoded in batches of `batchSize`, each stored as a page. */
export async function storeOriginPass(
  store: ArchiveStore,
  key: DayKey,
  elements: readonly string[],
  now: number,
  batchSize = 1000,
): Promise<PageStored[]> {
  const claim = await store.ledger.claim(key, OWNER, now, LEASE_MS, false);
  if (claim.kind !== 'claimed') throw new Error(`the day is held by ${claim.owner}`);
  const decoder = new OriginBodyDecoder(batchSize);
  const batches = decoder.push(originAnswerText(elements));
  batches.push(decoder.end().batch);
  const out: PageStored[] = [];
  for (let i = 0; i < batches.length; i++) {
    const r = await store.storePage(
      key,
      OWNER,
      { source: 'origin', batch: batches[i]!, page: 0, nextToken: null, pages: i === 0 ? 1 : 0 },
      now,
      LEASE_MS,
    );
    if (r.kind !== 'stored') throw new Error('lease lost');
    out.push(r);
  }
  return out;
}

export type Row = Record<string, unknown>;

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const entryColumns = (source: 'origin' | 'shield', fields: readonly string[]) => [
  ENTRY_TABLES[source].zoneColumn,
  'log_date',
  ...fields.map(snake),
];

/** The stored (not generated) columns of each table the stores share, and their key order. */
export const ARCHIVE_TABLES: Record<string, { columns: readonly string[]; order: string }> = {
  origin_error_logs: {
    columns: entryColumns('origin', ORIGIN_FIELDS),
    order: 'pull_zone_id, timestamp, log_id',
  },
  shield_event_logs: {
    columns: entryColumns('shield', SHIELD_FIELDS),
    order: 'shield_zone_id, timestamp, log_id',
  },
  origin_hourly: {
    columns: ['pull_zone_id', 'hour', 'status_code', 'error_code', 'count'],
    order: 'pull_zone_id, hour, status_code, error_code',
  },
  shield_hourly: {
    columns: ['shield_zone_id', 'hour', 'rule_id', 'severity', 'status', 'count'],
    order: 'shield_zone_id, hour, rule_id, severity, status',
  },
  quarantined_entries: {
    columns: [
      'source',
      'zone_id',
      'log_date',
      'raw',
      'raw_hash',
      'reason',
      'page',
      'position',
      'first_seen_at',
    ],
    order: 'source, zone_id, log_date, page, position, raw_hash',
  },
  api_guardian_snapshots: {
    columns: [
      'shield_zone_id',
      'taken_at',
      ...Object.values(GUARDIAN_COUNTER_COLUMNS),
      'overview',
      'error',
      'counters',
    ],
    order: 'shield_zone_id, taken_at',
  },
  ingest_ledger: {
    columns: [
      'source',
      'zone_id',
      'log_date',
      'state',
      'pass_started_at',
      'next_token',
      'pages',
      'entries',
      'new_entries',
      'malformed',
      'quarantined',
      'first_ts',
      'last_ts',
      'archived_entries',
      'quarantined_entries',
      'covered_until',
      'last_error',
      'updated_at',
      'finished_at',
    ],
    order: 'source, zone_id, log_date',
  },
};

const INTEGER_KEYS = new Set([
  'pull_zone_id',
  'shield_zone_id',
  'zone_id',
  'timestamp',
  'hour',
  'status_code',
  'page',
  'position',
]);

/**
 * A table's rows as the archive holds them, ordered by its key in byte order on either store (text
 * compared as UTF-8 bytes: SQLite's order, and PostgreSQL's "C" collation). `where` filters both alike.
 */
export async function tableRows(reader: ArchiveReader, table: string, where = 'true'): Promise<Row[]> {
  const t = ARCHIVE_TABLES[table];
  if (!t) throw new Error(`no such table in ARCHIVE_TABLES: ${table}`);
  // Text in byte order on both: PostgreSQL's "C" collation is SQLite's BINARY for UTF-8.
  const order = t.order
    .split(', ')
    .map((c) => (reader.store === 'postgres' && !INTEGER_KEYS.has(c) ? `${c} COLLATE "C"` : c))
    .join(', ');
  return reader.all<Row>(`SELECT ${t.columns.join(', ')} FROM ${table} WHERE ${where} ORDER BY ${order}`);
}

/** The ledger row of a day, as the store reads it. */
export async function ledgerOf(store: ArchiveStore, key: DayKey): Promise<LedgerRow> {
  const row = await store.ledger.get(key);
  if (!row) throw new Error(`no ledger row for ${key.source} ${key.zone} ${key.day}`);
  return row;
}
