// `edgelog migrate-store`: copies a SQLite archive into a PostgreSQL one, table by table in batches
// (bounded memory: one batch of rows at a time), each batch in one transaction, skipping what the target
// holds already, then checks that the target holds what was copied (verify.ts). Running it again adds
// nothing; a run killed half-way is completed by the next.
import { MigrateStoreError } from '../../errors/index.js';
import { copyField } from '../postgres/copy-text.js';
import type { PostgresOptions } from '../postgres/connection.js';
import { openPostgresTarget, type CopyPath, type LiveLease, type PostgresTarget } from './postgres-target.js';
import { openSqliteSource, type SourceValue, type SqliteSource } from './sqlite-source.js';
import { copyColumns, TABLES, type TableSpec } from './tables.js';
import { mismatches, notes, rowsCheck, type Check } from './verify.js';

export interface MigrateStoreOptions {
  /** The SQLite archive. */
  from: string;
  /** The PostgreSQL archive's URL (a password in it is never shown), and its TLS settings. */
  to: string;
  ssl?: PostgresOptions['ssl'];
  /** Rows per batch (and per transaction). @defaultValue 10_000 */
  batchRows?: number;
  /** @defaultValue Date.now */
  now?: () => number;
  /** Called after each batch. */
  onProgress?: (progress: { table: string; read: number; total: number }) => void;
}

export interface TableCopied {
  table: string;
  /** Rows read from the source. */
  read: number;
  /** Of which were not in the target, and were added. */
  inserted: number;
  /** Of which were in the target, older, and brought up to date (ingest_ledger, alert_state). */
  updated: number;
  /** Of which were in the target already, and left as they were. */
  alreadyThere: number;
  /** Rows with U+0000 in a text value (PostgreSQL cannot store it), copied with it written `\u0000`. */
  escaped: number;
}

export interface MigrateStoreResult {
  /** The source file's path. */
  source: string;
  /** The target's URL without its password. */
  target: string;
  tables: TableCopied[];
  checks: Check[];
  /** Every check passed. */
  ok: boolean;
  /** What failed, one line each, with what to do. */
  mismatches: string[];
  /** What the checks found that is not a failure (the target's own rows), one line each. */
  notes: string[];
  /** Tables of the source that are not edgelog's: not copied. */
  notCopied: string[];
  /** Live leases in the source: a worker may have written to it after the snapshot copied. */
  sourceLiveLeases: number;
  elapsedMs: number;
}

export async function migrateStore(opts: MigrateStoreOptions): Promise<MigrateStoreResult> {
  const now = opts.now ?? Date.now;
  const batchRows = opts.batchRows ?? 10_000;
  if (!Number.isSafeInteger(batchRows) || batchRows < 1)
    throw new RangeError('batchRows must be a positive integer');
  const started = performance.now();
  const source = openSqliteSource(opts.from);
  let target: PostgresTarget | undefined;
  try {
    target = await openPostgresTarget({ url: opts.to, ...(opts.ssl ? { ssl: opts.ssl } : {}) });
    await refuseLiveLeases(target, now());
    const tables: TableCopied[] = [];
    for (const spec of TABLES) tables.push(await copyTable(source, target, spec, batchRows, opts.onProgress));
    await target.continueBatches(source.lastBatch());
    // A worker that started meanwhile would make the counts differ for a reason of its own.
    await refuseLiveLeases(target, now());
    const checks = await verify(source, target);
    const failed = mismatches(checks);
    return {
      source: source.path,
      target: target.location,
      tables,
      checks,
      ok: failed.length === 0,
      mismatches: failed,
      notes: notes(checks),
      notCopied: source.foreignTables,
      sourceLiveLeases: source.liveLeases(now()),
      elapsedMs: performance.now() - started,
    };
  } finally {
    source.close();
    await target?.close();
  }
}

async function refuseLiveLeases(target: PostgresTarget, now: number): Promise<void> {
  const leases = await target.liveLeases(now);
  if (leases.count === 0) return;
  const held = leases.some.map((l) => describeLease(l, now)).join('; ');
  throw new MigrateStoreError(
    `a worker is writing to ${target.location}: ${leases.count} live lease${leases.count === 1 ? '' : 's'} (${held}). ` +
      'Stop the workers that use it (or wait until their leases expire), then run migrate-store again',
  );
}

function describeLease(l: LiveLease, now: number): string {
  return `${l.source} zone ${l.zone_id} day ${l.log_date} held by ${l.lease_owner} for ${Math.ceil((l.lease_until - now) / 1000)} s more`;
}

async function copyTable(
  source: SqliteSource,
  target: PostgresTarget,
  spec: TableSpec,
  batchRows: number,
  onProgress: MigrateStoreOptions['onProgress'],
): Promise<TableCopied> {
  const cols = copyColumns(spec, source.columns(spec.name), await target.columns(spec.name));
  const index = new Map(cols.names.map((c, i) => [c, i]));
  const total = source.count(spec.name);
  const copied: TableCopied = {
    table: spec.name,
    read: 0,
    inserted: 0,
    updated: 0,
    alreadyThere: 0,
    escaped: 0,
  };
  // Straight into the table while every row is new; through the staging table once some were there.
  let path: CopyPath = spec.entry ? 'direct' : 'merge';
  // One batch is written while the next is read (the server works while this process reads the file):
  // two batches in memory at most.
  let writing: Promise<void> | undefined;
  let failed: { err: unknown } | undefined;
  const write = async (rows: SourceValue[][], text: string) => {
    const written = await target.write(spec, cols, text, { rows, index }, path);
    copied.read += rows.length;
    copied.inserted += written.inserted;
    copied.updated += written.updated;
    copied.alreadyThere += rows.length - written.inserted - written.updated;
    if (spec.entry) path = written.inserted === rows.length ? 'direct' : 'merge';
    onProgress?.({ table: spec.name, read: copied.read, total });
  };
  for await (const rows of source.batches(spec.name, cols.names, batchRows)) {
    copied.escaped += escapeNul(rows);
    const text = copyText(rows);
    await writing;
    if (failed) break;
    // Caught at once: a failure while the next batch is read is not an unhandled rejection.
    writing = write(rows, text).catch((err: unknown) => void (failed = { err }));
  }
  await writing;
  if (failed) throw failed.err;
  return copied;
}

/** Writes U+0000 in text values as the text `\u0000` (PostgreSQL's text refuses it); returns the rows changed. */
export function escapeNul(rows: SourceValue[][]): number {
  let changed = 0;
  for (const row of rows) {
    let hit = false;
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (typeof v === 'string' && v.includes('\u0000')) {
        row[i] = v.replaceAll('\u0000', '\\u0000');
        hit = true;
      }
    }
    if (hit) changed++;
  }
  return changed;
}

/** The rows in COPY text format. */
export function copyText(rows: readonly SourceValue[][]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) text += (i === 0 ? '' : '\t') + copyField(row[i] ?? null);
    text += '\n';
  }
  return text;
}

async function verify(source: SqliteSource, target: PostgresTarget): Promise<Check[]> {
  const checks: Check[] = [];
  for (const spec of TABLES) {
    checks.push(
      rowsCheck(
        spec.name,
        spec.groups,
        source.groupTotals(spec.name, spec.groups, spec.total ?? 'rows'),
        await target.groupTotals(spec.name, spec.groups, spec.total ?? 'rows'),
      ),
    );
  }
  return checks;
}
