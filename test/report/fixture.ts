// Test archives: a real SQLite file in a temp dir, filled through the repositories as ingestion does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { RawLogEntry } from '../../src/api/index.js';
import { parseOriginEntry, parseShieldEntry } from '../../src/ingest/parse-entries.js';
import type { Output } from '../../src/format/output.js';
import { openArchive, type Archive } from '../../src/store/sqlite/archive.js';
import { dayOf } from '../../src/time/utc-day.js';

export interface TempArchive {
  dir: string;
  path: string;
  archive: Archive;
  cleanup(): void;
}

export function tempArchive(): TempArchive {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-report-'));
  const path = join(dir, 'archive.db');
  const archive = openArchive(path);
  return {
    dir,
    path,
    archive,
    cleanup: () => {
      if (archive.db.open) void archive.close(); // closes at once (no background checkpoints)
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OriginFields {
  url?: string;
  status?: number;
  code?: string;
  server?: string;
}

export interface ShieldFields {
  rule?: string;
  message?: string;
  severity?: string;
  status?: string;
  country?: string;
  asn?: string;
  method?: string;
  server?: string;
}

let nextId = 0;
const logId = () => `00000000-0000-4000-8000-${String(++nextId).padStart(12, '0')}`;

/** An origin entry as the API sends it; `null` fields: an entry without log or labels. */
export function originEntry(iso: string, f: OriginFields | null): RawLogEntry {
  const timestamp = Date.parse(iso);
  if (f === null) return { logId: logId(), timestamp, log: null, labels: null };
  return {
    logId: logId(),
    timestamp,
    log: JSON.stringify({
      RequestUrl: f.url,
      Message: 'origin error',
      ErrorCode: f.code,
      StatusCode: f.status,
    }),
    labels: {
      ErrorCode: f.code ?? null,
      StatusCode: f.status === undefined ? null : String(f.status),
      ServerZone: f.server ?? null,
    },
  };
}

export function shieldEntry(iso: string, f: ShieldFields): RawLogEntry {
  return {
    logId: logId(),
    timestamp: Date.parse(iso),
    log: JSON.stringify({ Message: f.message, Url: 'https://shield.example.com/x', RemoteIp: '10.0.0.*' }),
    labels: {
      asn: f.asn ?? null,
      country: f.country ?? null,
      ruleId: f.rule ?? null,
      severity: f.severity ?? null,
      method: f.method ?? null,
      ruleGroup: 'GENERAL',
      status: f.status ?? null,
      serverZone: f.server ?? null,
    },
  };
}

/** `n` copies (distinct log ids) of an entry. */
export function times(n: number, make: () => RawLogEntry): RawLogEntry[] {
  return Array.from({ length: n }, make);
}

function byDay(entries: readonly RawLogEntry[]): Map<string, RawLogEntry[]> {
  const days = new Map<string, RawLogEntry[]>();
  for (const e of entries) {
    const day = dayOf(e.timestamp);
    days.set(day, [...(days.get(day) ?? []), e]);
  }
  return days;
}

/** Stores entries as ingestion does: per UTC day, in a transaction, rollups included. */
export function storeOrigin(archive: Archive, zone: number, entries: readonly RawLogEntry[]): void {
  archive.db.transaction(() => {
    for (const [day, list] of byDay(entries)) archive.origin.storeRows(zone, day, list.map(parseOriginEntry));
  })();
}

export function storeShield(archive: Archive, zone: number, entries: readonly RawLogEntry[]): void {
  archive.db.transaction(() => {
    for (const [day, list] of byDay(entries)) archive.shield.storeRows(zone, day, list.map(parseShieldEntry));
  })();
}

/** An Output that keeps what was written, chunk by chunk. */
export function memoryOutput(): Output & { chunks: string[]; text(): string } {
  const chunks: string[] = [];
  return {
    chunks,
    write: (text) => {
      chunks.push(text);
      return Promise.resolve();
    },
    text: () => chunks.join(''),
  };
}

/** A stream standing in for stdout. */
export function memoryStdout(): Writable & { text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return Object.assign(stream, { text: () => Buffer.concat(chunks).toString('utf8') });
}
