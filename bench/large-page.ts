// One Shield page of tiny entries as large as you ask (300 MiB by default, within the default
// api.maxResponseBytes of 512 MiB), through a page thread of the default heap into SQLite, in a process
// started as bin/edgelog.js starts edgelog (old space 1 GB). Decoded whole such a page takes over ten times
// its bytes; it is decoded and stored in parts (decode-page.ts WHOLE_PAGE_BYTES). Prints the entries
// stored, the time, and the process's peak RSS.
//   node --max-old-space-size=1024 --max-semi-space-size=8 --import tsx bench/large-page.ts [--mib 300]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { parseConfig } from '../src/config/index.js';
import { createApiClient } from '../src/api/index.js';
import { DayIngestor, ownerId } from '../src/ingest/day-ingestor.js';
import { PageThreads } from '../src/ingest/page-threads.js';
import { silentLogger } from '../src/logger.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { addDays, dayOf } from '../src/time/utc-day.js';
import { argOf } from './args.js';
import { startSimulator } from './processes.js';

const mib = Number(argOf('mib', '300'));
const TINY_ENTRY_BYTES = 70; // {"logId":"<uuid>","timestamp":<13 digits>} and a comma
const entries = Math.round((mib * 2 ** 20) / TINY_ENTRY_BYTES);
const say = (line: string) => void process.stderr.write(`${line}\n`);

say(
  `one Shield page of ${entries} tiny entries (~${mib} MiB); old space ${Math.round(getHeapStatistics().heap_size_limit / 2 ** 20)} MB`,
);
const sim = await startSimulator({
  shieldEntries: entries,
  pageSize: entries,
  tinyEntries: true,
  shieldZones: [201],
});
const dir = mkdtempSync(join(tmpdir(), 'edgelog-large-page-'));
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
try {
  const { accessKey, ...urls } = sim.urls;
  const config = parseConfig({ api: { ...urls, accessKey }, database: { path: join(dir, 'a.db') } });
  const api = createApiClient(config.api, silentLogger());
  const threads = new PageThreads({ threads: 1, api: config.api, logger: silentLogger() });
  await threads.warm();
  const store = openSqliteStore(join(dir, 'a.db'));
  const ingestor = new DayIngestor({
    client: api.client,
    pages: threads.shieldPages.bind(threads),
    store,
    logger: silentLogger(),
    pageCap: config.api.pageCap,
    finalizeDelayMs: config.schedule.finalizeDelay,
  });
  const started = performance.now();
  const day = addDays(dayOf(Date.now()), -1);
  const r = await ingestor.run({ source: 'shield', zone: 201, day }, { owner: ownerId('bench') });
  const seconds = (performance.now() - started) / 1000;
  const rows = store.archive.db.prepare('SELECT count(*) FROM shield_event_logs').pluck().get() as number;
  console.log(
    JSON.stringify({
      mib,
      entries,
      outcome: r.outcome,
      pages: r.pages,
      archived: r.archived,
      rows,
      seconds: Math.round(seconds * 10) / 10,
      entriesPerSec: Math.round(rows / seconds),
      peakRssMiB: Math.round(peakRss / 2 ** 20),
    }),
  );
  await threads.close();
  await api.close();
  await store.close();
} finally {
  clearInterval(sampler);
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
