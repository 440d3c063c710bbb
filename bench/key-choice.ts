// Why the entry tables' unique key is (zone, timestamp, log_id): the same 300,000 parsed Shield rows
// stored with no index, with a unique index on (zone, log_id) — the random UUID decides where each row
// lands in the index — and with the chosen key, whose inserts land at the end. `npm run bench:keys`.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openArchive } from '../src/store/archive.js';
import { BENCH_DAY, parsePage, shieldPageTexts } from './rows.js';

const DIR = fileURLToPath(new URL('../.bench/keys', import.meta.url));
const COLUMNS = `shield_zone_id, log_id, log_date, timestamp, asn, country, rule_id, severity, method, rule_group, status,
  server_zone, url, remote_ip, message, log, parse_error, extra_labels`;
const KEYS: Record<string, string | null> = {
  'no index': null,
  'unique (zone, log_id)': 'CREATE UNIQUE INDEX k ON shield_event_logs (shield_zone_id, log_id)',
  'unique (zone, timestamp, log_id)':
    'CREATE UNIQUE INDEX k ON shield_event_logs (shield_zone_id, timestamp, log_id)',
};

const pages = shieldPageTexts(300, 1000).map(parsePage);
mkdirSync(DIR, { recursive: true });
for (const round of [1, 2]) {
  for (const [name, ddl] of Object.entries(KEYS)) {
    const path = join(DIR, 'keys.db');
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    const archive = openArchive(path, { backgroundCheckpoints: true, cacheMiB: 8 });
    const { db } = archive;
    db.exec('DROP INDEX shield_event_logs_key');
    if (ddl) db.exec(ddl);
    const insert = db.prepare(
      `INSERT INTO shield_event_logs (${COLUMNS}) VALUES (${COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})${ddl ? ' ON CONFLICT DO NOTHING' : ''}`,
    );
    const store = db.transaction((rows: (typeof pages)[number]) => {
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
    const started = performance.now();
    for (const page of pages) store.immediate(page);
    const rate = Math.round(300_000 / ((performance.now() - started) / 1000));
    await archive.close();
    if (round === 2)
      process.stdout.write(`${name.padEnd(34)} ${rate.toLocaleString('en-US').padStart(9)} rows/s\n`);
  }
}
rmSync(DIR, { recursive: true, force: true });
