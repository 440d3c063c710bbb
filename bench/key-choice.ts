// Why the entry tables' unique key is (zone, timestamp, log_id): the same 300,000 parsed Shield rows
// stored with no index, with a unique index on (zone, log_id) — the random UUID decides where each row
// lands in the index — and with the chosen key, whose inserts land at the end. `npm run bench:keys`.
import { fileURLToPath } from 'node:url';
import { measureLimit } from './limit.js';
import { parsePage, shieldPageTexts } from './rows.js';

const DIR = fileURLToPath(new URL('../.bench/keys', import.meta.url));
// The unique key's columns (also the inserts' conflict target), by name.
const KEYS: Record<string, string | null> = {
  'no index': null,
  'unique (zone, log_id)': 'shield_zone_id, log_id',
  'unique (zone, timestamp, log_id)': 'shield_zone_id, timestamp, log_id',
};

const pages = shieldPageTexts(300, 1000).map(parsePage);
for (const round of [1, 2]) {
  for (const [name, key] of Object.entries(KEYS)) {
    const rate = Math.round(await measureLimit(DIR, pages, key));
    if (round === 2)
      process.stdout.write(`${name.padEnd(34)} ${rate.toLocaleString('en-US').padStart(9)} rows/s\n`);
  }
}
