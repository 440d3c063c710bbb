// (1) The write ceiling: the same parsed rows, the same table and connection settings as the engine,
// no index, no rollup, transactions of one page. (2) The parse rate of pages in memory.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ShieldRow } from '../src/ingest/parse-entries.js';
import { openArchive } from '../src/store/archive.js';
import { BENCH_DAY, parsePage } from './rows.js';

const COLUMNS = `shield_zone_id, log_id, log_date, timestamp, asn, country, rule_id, severity, method, rule_group, status,
  server_zone, url, remote_ip, message, log, parse_error, extra_labels`;

/** Rows per second stored with no index, as the engine's archive connection stores them. */
export async function measureLimit(dir: string, pages: ShieldRow[][]): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'limit.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const archive = openArchive(path, { backgroundCheckpoints: true, cacheMiB: 16 });
  try {
    const { db } = archive;
    db.exec('DROP INDEX shield_event_logs_key');
    const insert = db.prepare(
      `INSERT INTO shield_event_logs (${COLUMNS}) VALUES (${COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})`,
    );
    const store = db.transaction((rows: ShieldRow[]) => {
      for (const r of rows) {
        insert.run(
          201,
          r.logId,
          BENCH_DAY,
          r.timestamp,
          r.asn,
          r.country,
          r.ruleId,
          r.severity,
          r.method,
          r.ruleGroup,
          r.status,
          r.serverZone,
          r.url,
          r.remoteIp,
          r.message,
          r.log,
          r.parseError,
          r.extraLabels,
        );
      }
    });
    let rows = 0;
    const started = performance.now();
    for (const page of pages) {
      store.immediate(page);
      rows += page.length;
      await yieldToLoop(); // as between pages in the engine
    }
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Entries per second through outer JSON, validation, embedded log JSON and row building. */
export function measureParse(texts: string[]): number {
  let entries = 0;
  const started = performance.now();
  for (const text of texts) entries += parsePage(text).length;
  return entries / ((performance.now() - started) / 1000);
}
