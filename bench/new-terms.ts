// `npm run bench:new-terms -- --rows 10000000`: how long a new-term rule's judgement takes on a large
// archive. The archive is bench/archive.ts's (origin rows over 20 zones and 30 days, through the
// engine's own repository, so term_hourly is kept as ingestion keeps it); each field is judged for every
// zone on the last complete hour against a 14-day lookback, as the evaluator does it (the ledger's
// coverage, then the store's newTerms), on a read-only connection.
import { barLines, judgementBar } from './bars.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { OriginRow, ShieldRow } from '../src/store/rows.js';
import { openArchive } from '../src/store/sqlite/archive.js';
import { planNewTerm } from '../src/alerts/new-term.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import { RuleReadsRepository } from '../src/store/sqlite/rule-reads.js';
import { newTerms } from '../src/store/sqlite/terms.js';
import { dayEndMs } from '../src/time/utc-day.js';
import { existsSync, renameSync } from 'node:fs';
import { writeTermCounts } from '../src/store/sqlite/terms.js';
import { batchTermColumns, PLAIN_TERM_FIELDS, TermCounter } from '../src/store/terms.js';
import { originBatch } from '../src/store/rows.js';
import { archiveBatches, ARCHIVE_LAST_DAY, ARCHIVE_ZONES, generatedArchive } from './archive.js';
import { median } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    dir: { type: 'string', default: '.bench' },
    runs: { type: 'string', default: '25' },
    /** Rows stored with and without term counting, to measure what term_hourly costs ingestion. */
    'overhead-rows': { type: 'string', default: '0' },
    /**
     * Only term_hourly and the ledger of the archive's rows, not the entries: what the judgement reads,
     * for an archive too large to generate whole here (the 10M rows of the bench's archive).
     */
    'terms-only': { type: 'boolean', default: false },
  },
});

/** Rows shaped as bench/archive.ts's (one zone-day), in batches of `size`. */
function rowBatches(n: number, size: number): OriginRow[][] {
  const batches: OriginRow[][] = [];
  const start = Date.parse('2026-11-20T00:00:00Z');
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  for (let i = 0; i < n; i += size) {
    batches.push(
      Array.from({ length: Math.min(size, n - i) }, (_, k) => {
        const j = i + k;
        const timestamp = start + Math.floor((j * 86_400_000) / n);
        const url = `https://cdn1.example.net/v/${Math.floor(rand() * 5000)}.ts`;
        return {
          logId: `1-${timestamp}-${j}`,
          timestamp,
          requestUrl: url,
          message: 'origin error',
          errorCode: ['http_timeout', 'dns_lookup', 'error'][j % 3]!,
          statusCode: [504, 502, 500][j % 3]!,
          serverZone: 'DE',
          log: `{"RequestUrl":"${url}","PullZoneId":1}`,
          labels: '{"ServerZone":"DE"}',
          parseError: null,
        };
      }),
    );
  }
  return batches;
}

/** Shield rows as the simulator's vocabulary makes them: a few countries, ASNs, rules and paths. */
function shieldBatches(n: number, size: number): ShieldRow[][] {
  const start = Date.parse('2026-11-20T00:00:00Z');
  const pick = <T>(xs: readonly T[], j: number) => xs[j % xs.length]!;
  const batches: ShieldRow[][] = [];
  for (let i = 0; i < n; i += size) {
    batches.push(
      Array.from({ length: Math.min(size, n - i) }, (_, k) => {
        const j = i + k;
        return {
          logId: `s-${j}`,
          timestamp: start + Math.floor((j * 86_400_000) / n),
          asn: pick(['AS3320', 'AS7922', 'AS16509', 'AS4134', 'AS12389', 'AS14061'], j),
          country: pick(['DE', 'US', 'CN', 'RU', 'FR', 'BR', 'NL'], j * 7),
          ruleId: pick(['1001', '1002', '2001', '3005', '4100'], j * 3),
          severity: pick(['LOW', 'MEDIUM', 'HIGH'], j),
          method: pick(['GET', 'POST', 'HEAD'], j * 5),
          ruleGroup: 'SQLI',
          status: pick(['BLOCKED', 'LOGGED'], j),
          serverZone: 'DE',
          url: `https://shield-1.example.com${pick(['/wp-login.php', '/api/v1/users', '/admin/config.php', '/search', '/.env', '/cgi-bin/x'], j * 11)}?q=${j}`,
          remoteIp: '10.0.0.1',
          message: 'rule',
          log: `{"i":${j}}`,
          parseError: null,
          extraLabels: null,
        };
      }),
    );
  }
  return batches;
}

/** Rows per second storing `batches` into a fresh archive, with term counting or without. */
function ingestRate(
  batches: OriginRow[][] | ShieldRow[][],
  terms: boolean,
  source: 'origin' | 'shield',
): number {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-bench-terms-'));
  const archive = openArchive(join(dir, 'a.db'));
  try {
    const repo = source === 'origin' ? archive.origin : archive.shield;
    if (!terms) repo.terms.stage = () => {};
    const t0 = performance.now();
    let n = 0;
    for (const b of batches) {
      archive.db
        .transaction(() =>
          source === 'origin'
            ? archive.origin.storeRows(1, '2026-11-20', b as OriginRow[])
            : archive.shield.storeRows(1, '2026-11-20', b as ShieldRow[]),
        )
        .immediate();
      repo.terms.committed(); // as storePage does once a page's transaction commits
      n += b.length;
    }
    return n / ((performance.now() - t0) / 1000);
  } finally {
    void archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (Number(opts['overhead-rows']) > 0) {
  const rows = Number(opts['overhead-rows']);
  const best = (xs: number[]) => Math.max(...xs);
  const sources = [
    ['origin', rowBatches(rows, 5000)],
    ['shield', shieldBatches(rows, 1000)],
  ] as const;
  for (const [source, batches] of sources) {
    const rates = { with: [] as number[], without: [] as number[] };
    for (let round = 0; round < 3; round++) {
      rates.without.push(ingestRate(batches, false, source));
      rates.with.push(ingestRate(batches, true, source));
    }
    process.stdout.write(
      `ingest of ${rows} ${source} rows (best of 3, alternated): without term_hourly ` +
        `${Math.round(best(rates.without)).toLocaleString('en')} rows/s, with ${Math.round(best(rates.with)).toLocaleString('en')} rows/s ` +
        `(ratio ${(best(rates.with) / best(rates.without)).toFixed(2)})\n`,
    );
  }
  process.exit(0);
}

/** An archive of term_hourly and the ledger only, counted from archiveBatches(rows) by the writers' code (no entries, so no watermark to move). */
function generatedTerms(dir: string, rows: number, log: (line: string) => void): string {
  const path = join(dir, `terms-${rows}.db`);
  if (existsSync(path)) return path;
  const tmp = `${path}.tmp`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(tmp + suffix, { force: true });
  const archive = openArchive(tmp, { cacheMiB: 64 });
  const ledger = archive.db.prepare(
    `INSERT INTO ingest_ledger (source, zone_id, log_date, state, pages, entries, new_entries, covered_until, updated_at, finished_at)
     VALUES ('origin', ?, ?, 'complete', 1, ?, ?, ?, ?, ?)`,
  );
  const t0 = performance.now();
  let n = 0;
  for (const { zone, day, batch } of archiveBatches(rows)) {
    archive.db.transaction(() => {
      const counter = new TermCounter();
      counter.add(batchTermColumns('origin', originBatch(batch)), PLAIN_TERM_FIELDS.origin);
      writeTermCounts(archive.db, 'origin', new Map([[zone, counter]]));
      const end = dayEndMs(day);
      ledger.run(zone, day, batch.length, batch.length, end, end, end);
    })();
    if (++n % ARCHIVE_ZONES === 0)
      log(`  counted ${n / ARCHIVE_ZONES} days (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  void archive.close();
  renameSync(tmp, path);
  return path;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const started = performance.now();
const path = opts['terms-only']
  ? generatedTerms(opts.dir, Number(opts.rows), say)
  : generatedArchive(opts.dir, Number(opts.rows), say);
say(`archive ready in ${Math.round((performance.now() - started) / 1000)} s: ${path}`);
const db = openDatabase(path, { readonly: true });
const repo = new RuleReadsRepository(db);
const count = (sql: string) => Number(db.prepare(sql).pluck().get());
const entries = opts['terms-only']
  ? count("SELECT sum(entries) FROM ingest_ledger WHERE source = 'origin'")
  : count('SELECT max(id) FROM origin_error_logs');
const termRows = count('SELECT count(*) FROM term_hourly');
say(
  `entries ${entries.toLocaleString('en')}${opts['terms-only'] ? ' (counted, not stored)' : ''}, term_hourly rows ${termRows.toLocaleString('en')}`,
);

const now = dayEndMs(ARCHIVE_LAST_DAY) + 30 * 60_000;
let params = { windowMs: 3_600_000, lookbackMs: 14 * 86_400_000 };

/** One zone's judgement, as the evaluator makes it: coverage, plan, then the store's answer. */
function judge(zone: number, field: string): number {
  const plan = planNewTerm(params, repo.coverage('origin', zone), now);
  if (plan.kind !== 'ready') throw new Error(`zone ${zone}: ${plan.reason}`);
  const found = newTerms(db, {
    source: 'origin',
    zone,
    field,
    from: plan.window.from,
    to: plan.window.to,
    lookbackFrom: plan.lookbackFrom,
    min: 1,
    limit: 10,
  });
  return found.total;
}

// Last, a 1-hour lookback: most of the window's paths are then new, and the answer has rows.
const cases = [
  ...['error_code', 'status_code', 'path:1', 'path:2', 'path:3'].map((field) => ({
    field,
    lookbackMs: 14 * 86_400_000,
  })),
  { field: 'path:2', lookbackMs: 3_600_000 },
];
let slowest = 0;
for (const { field, lookbackMs } of cases) {
  params = { ...params, lookbackMs };
  judge(1, field); // warm the cache, as a worker evaluating every few minutes has it
  const one: number[] = [];
  const all: number[] = [];
  // CPU time beside wall time: on a loaded machine a loop of twenty is descheduled between them.
  const cpu: number[] = [];
  let found = 0;
  for (let r = 0; r < Number(opts.runs); r++) {
    const t0 = performance.now();
    found = judge(1 + (r % ARCHIVE_ZONES), field);
    one.push(performance.now() - t0);
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    for (let zone = 1; zone <= ARCHIVE_ZONES; zone++) judge(zone, field);
    all.push(performance.now() - t1);
    const c = process.cpuUsage(c1);
    cpu.push((c.user + c.system) / 1000);
  }
  slowest = Math.max(slowest, median(one));
  say(
    `${field.padEnd(11)} lookback ${lookbackMs / 3_600_000}h, one zone: median ${median(one).toFixed(2)} ms, max ${Math.max(...one).toFixed(2)} ms; ` +
      `all ${ARCHIVE_ZONES} zones: median ${median(all).toFixed(1)} ms (CPU ${median(cpu).toFixed(1)} ms) (new values found: ${found})`,
  );
}
db.close();
say(barLines([judgementBar(slowest, entries)]).join('\n'));
