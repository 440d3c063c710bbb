// `npm run bench:history` (builds, then runs this; `npx tsx bench/history.ts` after a build):
// the Parquet history on simulator data, in one run: a Shield day and an origin day synced end to end,
// then `edgelog compact` of both, as a user runs them. Reports bytes per entry per source in history
// beside the gzip of the same entries' raw API JSON (the answers the simulator served, byte for byte),
// compaction entries/s beside the end-to-end ingestion rate, and the peak RSS of each process.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { originErrorLogsUrl, shieldEventLogsUrl } from '../src/api/paths.js';
import { addDays, dayOf } from '../src/time/utc-day.js';
import { cleanBenchKeys, runSync, startSimulator, writeBenchConfig, type RunningSim } from './processes.js';

const { values: opts } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    'origin-entries': { type: 'string', default: '200000' },
    dir: { type: 'string', default: '.bench' },
    json: { type: 'boolean', default: false },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'edgelog.js');
const say = (line: string) => void process.stderr.write(`${line}\n`);

/** The gzip size of the day's raw API answers (every page's body), and the entries in them. */
async function rawGzip(sim: RunningSim, source: 'origin' | 'shield', zone: number, day: string) {
  const gzip = createGzip();
  let bytes = 0;
  let gzipped = 0;
  let entries = 0;
  gzip.on('data', (d: Buffer) => (gzipped += d.length));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const get = async (url: URL) => {
    const res = await request(url, { headers: { accesskey: sim.urls.accessKey } });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) throw new Error(`${url.pathname}: HTTP ${res.statusCode}`);
    bytes += body.length;
    gzip.write(body);
    return JSON.parse(body.toString('utf8')) as {
      logs: unknown[] | null;
      hasMoreData?: boolean;
      continuationToken?: string | null;
    };
  };
  if (source === 'origin') entries = (await get(originErrorLogsUrl(sim.urls, zone, day))).logs?.length ?? 0;
  else {
    for (let token = ''; ;) {
      const page = await get(shieldEventLogsUrl(sim.urls, zone, day, token));
      entries += page.logs?.length ?? 0;
      if (!page.hasMoreData || !page.continuationToken) break;
      token = page.continuationToken;
    }
  }
  gzip.end();
  await done;
  return { rawBytes: bytes, gzipBytes: gzipped, entries };
}

interface CompactSummary {
  days: number;
  entries: number;
  bytes: number;
  elapsedMs: number;
  peakRssMb: number;
}

async function runCompact(config: string): Promise<CompactSummary> {
  const child = spawn(BIN, ['--config', config, 'compact', '--json'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`edgelog compact exited with ${code}: ${out.slice(0, 500)}`);
  return JSON.parse(out) as CompactSummary;
}

async function main() {
  const shieldEntries = Number(opts.entries);
  const originEntries = Number(opts['origin-entries']);
  const dir = join(ROOT, String(opts.dir), 'history');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const day = addDays(dayOf(Date.now()), -1);
  say(
    `history bench: a Shield day of ${shieldEntries} and an origin day of ${originEntries} entries (${day})`,
  );
  const sim = await startSimulator({
    shieldEntries,
    originEntries,
    pageSize: 1000,
    pullZones: [101],
    shieldZones: [201],
    prerender: day,
  });
  try {
    const config = writeBenchConfig({
      dir,
      sim,
      database: join(dir, 'bench.db'),
      pullZones: [101],
      shieldZones: [201],
    });
    const c = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      config,
      JSON.stringify({ ...c, history: { hotDays: null }, schedule: { finalizeDelay: '0s' } }),
    );
    const shield = await runSync(config, ['--date', day, '--source', 'shield']);
    const origin = await runSync(config, ['--date', day, '--source', 'origin']);
    const ingestMs = shield.durationMs + origin.durationMs;
    const ingestRate = (shield.entries + origin.entries) / (ingestMs / 1000);
    say(
      `  ingestion end to end: ${Math.round(ingestRate)} entries/s (peak RSS ${Math.max(shield.peakRssMb ?? 0, origin.peakRssMb ?? 0)} MiB)`,
    );
    const compact = await runCompact(config);
    const compactRate = compact.entries / (compact.elapsedMs / 1000);
    say(
      `  compaction: ${Math.round(compactRate)} entries/s, ${compact.entries} entries in ${compact.elapsedMs} ms (peak RSS ${compact.peakRssMb} MiB)`,
    );
    const db = new Database(join(dir, 'bench.db'), { readonly: true });
    const recorded = db
      .prepare('SELECT source, entries, quarantined, bytes FROM history_days WHERE compacted_at IS NOT NULL')
      .all() as Array<{ source: 'origin' | 'shield'; entries: number; quarantined: number; bytes: number }>;
    db.close();
    const sizes: Record<string, unknown> = {};
    for (const [source, zone] of [
      ['shield', 201],
      ['origin', 101],
    ] as const) {
      const r = recorded.find((x) => x.source === source)!;
      const raw = await rawGzip(sim, source, zone, day);
      const perEntry = r.bytes / (r.entries + r.quarantined);
      const gzipPerEntry = raw.gzipBytes / raw.entries;
      sizes[source] = {
        entries: r.entries,
        historyBytes: r.bytes,
        historyBytesPerEntry: Number(perEntry.toFixed(1)),
        rawJsonBytesPerEntry: Number((raw.rawBytes / raw.entries).toFixed(1)),
        gzipBytesPerEntry: Number(gzipPerEntry.toFixed(1)),
        ratioToGzip: Number((perEntry / gzipPerEntry).toFixed(3)),
      };
      say(
        `  ${source}: ${perEntry.toFixed(1)} B/entry in history, gzip of the raw API JSON ${gzipPerEntry.toFixed(1)} ` +
          `(raw ${(raw.rawBytes / raw.entries).toFixed(0)}): ${(perEntry / gzipPerEntry).toFixed(2)}× gzip`,
      );
    }
    const result = {
      day,
      sizes,
      ingestEntriesPerSec: Math.round(ingestRate),
      compactEntriesPerSec: Math.round(compactRate),
      compactToIngestRatio: Number((compactRate / ingestRate).toFixed(3)),
      ingestPeakRssMb: Math.max(shield.peakRssMb ?? 0, origin.peakRssMb ?? 0),
      compactPeakRssMb: compact.peakRssMb,
    };
    if (opts.json) console.log(JSON.stringify(result));
    else console.log(JSON.stringify(result, null, 2));
  } finally {
    await sim.stop();
    await cleanBenchKeys();
  }
}

await main();
