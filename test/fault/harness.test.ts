// The fault suite's own checks can fail: an archive check that finds nothing wrong with a tampered
// archive, or a secret scan that finds nothing, would make every scenario pass vacuously. On each store:
// SQLite always, PostgreSQL when a server answers (a skip line otherwise).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import { FAULT_KINDS } from '../../src/simulator/index.js';
import { addDays } from '../../src/time/utc-day.js';
import { postgresReader } from '../support/archive-reader.js';
import { NOW, TODAY, type Harness } from '../support/harness.js';
import { testServer } from '../postgres/support/server.js';
import { describePostgres, describeStores, storeHarness } from '../support/stores.js';
import { archiveProblems, checkDay, claimProblems, invariantProblems } from './lib/archive-check.js';
import { pastDays } from './lib/clock.js';
import { describeMix, drawFaultMix, expectedVerdict, type FaultMix } from './lib/fault-mix.js';
import { integrityCheckName } from './lib/integrity.js';
import { summaryTable } from './lib/report.js';
import { Scene } from './lib/scene.js';
import { SecretScan } from './lib/secrets.js';
import { rngFor } from './lib/seeded.js';

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const DAY = addDays(TODAY, -1);

describeStores('archive checks', (store) => {
  it('find rows missing, rows not served, quarantine gaps, ledger totals and rollups that disagree', async () => {
    h = await storeHarness(store, { entriesPerDay: 300, pageSize: 100, oddEntryRate: 0.1 });
    const engine = await h.engine({ shieldZones: [201], pullZones: [] });
    const runtime = engine.privateRuntime('check');
    const jobs = await runtime.enqueueSync([{ source: 'shield', zone: 201, day: DAY, reason: 'sync' }]);
    runtime.startWorker();
    await runtime.waitFor<DayResult>(jobs);
    await runtime.discard();
    const ref = { source: 'shield' as const, zone: 201, day: DAY };
    const clean = await h.reader();
    expect((await checkDay(clean, h.sim, ref, { at: NOW, wholePass: true })).problems).toEqual([]);
    expect(await invariantProblems(clean)).toEqual([]);

    // Within the day (a PostgreSQL row needs the day's partition), at an instant the oracle never serves.
    const notServed = Date.parse(`${DAY}T00:00:00.000Z`) + 1;
    await damage(h, [
      ['DELETE FROM shield_event_logs WHERE id IN (SELECT id FROM shield_event_logs LIMIT 2)'],
      [
        // batch: as a page's transaction stores a row (a PostgreSQL row refuses to go in without one).
        `INSERT INTO shield_event_logs (shield_zone_id, log_id, log_date, timestamp, batch) VALUES (201, 'not-served', ?, ?, 1)`,
        DAY,
        notServed,
      ],
      ['DELETE FROM quarantined_entries WHERE id = (SELECT min(id) FROM quarantined_entries)'],
      ['UPDATE ingest_ledger SET archived_entries = archived_entries + 5'],
    ]);

    const db = await h.reader();
    const problems = (await checkDay(db, h.sim, ref, { at: NOW })).problems.join('\n');
    expect(problems).toMatch(/2 rows missing/);
    expect(problems).toContain(`1 rows not served (or twice): [${notServed},"not-served",null]`);
    expect(problems).toMatch(/1 quarantined entries missing/);
    const invariants = (await invariantProblems(db)).join('\n');
    expect(invariants).toMatch(/ledger archived_entries \d+, rows \d+/);
    expect(invariants).toMatch(/quarantined_entries \d+, quarantined rows \d+/);
    expect(invariants).toMatch(/the hourly rollup counts/);
    // A day the ledger calls complete must be whole; one that is not may lack entries, never add any.
    expect((await claimProblems(db, h.sim, [ref], NOW)).join('\n')).toMatch(/rows missing/);
    const subset = (await checkDay(db, h.sim, ref, { at: NOW, mode: 'subset' })).problems.join('\n');
    expect(subset).not.toMatch(/missing/);
    expect(subset).toMatch(/1 rows not served/);
  });
});

/** Runs statements on the harness's archive, SQLite or PostgreSQL (`?` placeholders on both). */
async function damage(h: Harness, statements: Array<[string, ...unknown[]]>): Promise<void> {
  if (h.databaseUrl === undefined) {
    const db = new Database(h.dbPath);
    try {
      for (const [sql, ...params] of statements) db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const db = await postgresReader(h.databaseUrl);
  try {
    for (const [sql, ...params] of statements) await db.all(sql, ...params);
  } finally {
    await db.close();
  }
}

describe('secret scan', () => {
  it('finds a secret as it is and percent-encoded, in text and in files, but not in skipped files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-scan-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'log.txt'), 'url=https://x/?k=ak%2Fsecret%3D1');
    writeFileSync(join(dir, 'edgelog.config.json'), '{"accessKey":"ak/secret=1"}');
    const scan = new SecretScan([{ name: 'the key', value: 'ak/secret=1' }]);
    scan.text('stderr', 'nothing here');
    scan.text('stdout', Buffer.from('… ak/secret=1 …'));
    scan.files(dir, (name) => name === 'edgelog.config.json');
    expect(scan.findings).toEqual(['the key in stdout', `the key in ${join(dir, 'log.txt')}`]);
    expect(scan.scanned).toBeGreaterThan(40);
  });
});

describePostgres('a scene', () => {
  it('has a database of its own, checked with amcheck, every table of it scanned for the secrets, dropped at close', async () => {
    const scene = await Scene.open({
      name: 'pg-checks',
      seed: 20261124,
      clock: 'fixed',
      store: 'postgres',
      sim: { pullZones: [101], shieldZones: [201], entriesPerDay: 400, pageSize: 100, oddEntryRate: 0.05 },
    });
    const name = scene.archive.store === 'postgres' ? new URL(scene.archive.url).pathname.slice(1) : '';
    try {
      expect(name).toMatch(/^edgelog_fault_[0-9a-f]{12}$/);
      scene.writeConfig({ pullZones: [101], shieldZones: [201], log: { level: 'warn' } });
      const [day] = pastDays(scene.now(), 1);
      const synced = await scene.run(['sync', '--date', day!, '--json']);
      expect(synced.code, synced.stderr).toBe(0);
      const refs = [
        { source: 'origin' as const, zone: 101, day: day! },
        { source: 'shield' as const, zone: 201, day: day! },
      ];
      const reader = await scene.reader();
      expect(await integrityCheckName(reader)).toMatch(/^amcheck/);
      expect(await archiveProblems(reader, scene.sim, refs, { at: scene.now() })).toEqual([]);
      const clean = await scene.scanSecrets();
      expect(clean.findings).toEqual([]);
      expect(clean.scanned).toBeGreaterThan(0);

      // A secret in a row of a day partition (percent-encoded) and in a plain table.
      const { accessKey, dbPassword } = scene.secrets;
      await reader.all(
        'UPDATE shield_event_logs SET message = ? WHERE id = (SELECT min(id) FROM shield_event_logs)',
        `denied: key=${encodeURIComponent(accessKey)}`,
      );
      await reader.all('UPDATE ingest_ledger SET last_error = ?', `could not connect with ${dbPassword}`);
      const planted = await scene.scanSecrets();
      expect(planted.findings.sort()).toEqual([
        `the access key in table shield_event_logs_${day!.replaceAll('-', '')}`,
        'the database password in table ingest_ledger',
      ]);
      await scene.closeReaders();
    } finally {
      await scene.close();
    }
    const server = await testServer();
    const admin = await postgresReader(server!.url);
    try {
      expect(await admin.all('SELECT datname FROM pg_database WHERE datname = ?', name)).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 60_000);
});

describe('fault mixes', () => {
  const mix = (over: Partial<FaultMix>): FaultMix => ({
    faults: [],
    oddEntryRate: 0,
    malformedRate: 0,
    dotTokens: false,
    wrongKey: false,
    expiredDay: false,
    unknownZone: false,
    ...over,
  });
  const day = { source: 'shield' as const, expired: false, unknownZone: false };

  it.each([
    ['503 twice per URL', 'complete', mix({ faults: [{ kind: '503', times: 2 }] }), day],
    ['a looping token', 'complete-or-incomplete', mix({ faults: [{ kind: 'loop', times: 1 }] }), day],
    [
      'a looping token, origin',
      'complete',
      mix({ faults: [{ kind: 'loop', times: 1 }] }),
      { ...day, source: 'origin' as const },
    ],
    [
      '"more", origin',
      'complete-or-incomplete',
      mix({ faults: [{ kind: 'more' }] }),
      { ...day, source: 'origin' as const },
    ],
    ['a wrong key', 'failed', mix({ wrongKey: true }), day],
    ['an unknown zone', 'failed', mix({}), { ...day, unknownZone: true }],
    ['an expired day', 'expired', mix({}), { ...day, expired: true }],
    [
      'an expired day, gzip',
      'expired-or-failed',
      mix({ faults: [{ kind: 'gzip', times: 1 }] }),
      { ...day, expired: true },
    ],
    // Seed 399247, mix 9 of `npm run soak -- --only fault-mixes --mixes 14`: the 401 cut in half.
    [
      'an expired day, truncate',
      'expired-or-failed',
      mix({ faults: [{ kind: 'truncate', times: 1 }] }),
      { ...day, expired: true },
    ],
  ] as const)('%s: %s', (_label, verdict, m, d) => {
    expect(expectedVerdict(m, d)).toBe(verdict);
  });

  it('are drawn from the seed alone, and over many seeds use every fault kind', () => {
    expect(drawFaultMix(rngFor(7, 'faults', 0))).toEqual(drawFaultMix(rngFor(7, 'faults', 0)));
    expect(drawFaultMix(rngFor(7, 'faults', 0), 'null-fields').faults[0]!.kind).toBe('null-fields');
    const kinds = new Set(
      Array.from({ length: 200 }, (_, i) =>
        drawFaultMix(rngFor(1, 'faults', i)).faults.map((f) => f.kind),
      ).flat(),
    );
    expect([...kinds].sort()).toEqual([...FAULT_KINDS].sort());
    expect(describeMix(mix({ faults: [{ kind: '429', times: 1, retryAfter: '0' }], dotTokens: true }))).toBe(
      '--fault 429:times=1,retryAfter=0 --dot-tokens',
    );
  });
});

describe('summary table', () => {
  it('shows each scenario with its counts, result and seed', () => {
    const base = { runs: 21, kills: 20, faults: 41, secretsScanned: 2 ** 20, notes: [] };
    const table = summaryTable([
      { scenario: 'sigkill-resume', seed: 7, problems: [], ...base },
      { scenario: 'two-workers', seed: 7, problems: ['x', 'y'], ...base },
    ]);
    expect(table.split('\n')).toEqual([
      'scenario        runs  kills  faults  secrets scanned  result      seed',
      'sigkill-resume    21     20      41          1.0 MiB  held           7',
      'two-workers       21     20      41          1.0 MiB  FAILED (2)     7',
    ]);
  });
});
