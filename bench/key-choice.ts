// Why the entry tables' unique key is (zone, timestamp, log_id): the same 300,000 parsed Shield rows
// stored with no index, with a unique index on (zone, log_id) — the random UUID decides where each row
// lands in the index — and with the chosen key, whose inserts land at the end. `npm run bench:keys`.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openArchive } from '../src/store/archive.js';
import { BatchInsert } from '../src/store/batch-insert.js';
import { fillShieldRow, SHIELD_COLUMNS } from '../src/store/shield-logs.repository.js';
import { BENCH_DAY, parsePage, shieldPageTexts } from './rows.js';

const DIR = fileURLToPath(new URL('../.bench/keys', import.meta.url));
// The unique key's columns (also the inserts' conflict target), by name.
const KEYS: Record<string, string | null> = {
  'no index': null,
  'unique (zone, log_id)': 'shield_zone_id, log_id',
  'unique (zone, timestamp, log_id)': 'shield_zone_id, timestamp, log_id',
};

const pages = shieldPageTexts(300, 1000).map(parsePage);
mkdirSync(DIR, { recursive: true });
for (const round of [1, 2]) {
  for (const [name, key] of Object.entries(KEYS)) {
    const path = join(DIR, 'keys.db');
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    const archive = openArchive(path, { backgroundCheckpoints: true, cacheMiB: 8 });
    const { db } = archive;
    db.exec('DROP INDEX shield_event_logs_key');
    if (key) db.exec(`CREATE UNIQUE INDEX k ON shield_event_logs (${key})`);
    const insert = new BatchInsert(db, 'shield_event_logs', SHIELD_COLUMNS, key);
    const store = db.transaction((b: (typeof pages)[number]) =>
      insert.run(b.logId.length, (args, at, i) => fillShieldRow(args, at, 201, BENCH_DAY, b, i)),
    );
    const started = performance.now();
    for (const page of pages) store.immediate(page);
    const rate = Math.round(300_000 / ((performance.now() - started) / 1000));
    await archive.close();
    if (round === 2)
      process.stdout.write(`${name.padEnd(34)} ${rate.toLocaleString('en-US').padStart(9)} rows/s\n`);
  }
}
rmSync(DIR, { recursive: true, force: true });
