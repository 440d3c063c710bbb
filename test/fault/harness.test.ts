// The fault suite's own checks can fail: an archive check that finds nothing wrong with a tampered
// archive, or a secret scan that finds nothing, would make every scenario pass vacuously.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import { FAULT_KINDS } from '../../src/simulator/index.js';
import { addDays } from '../../src/time/utc-day.js';
import { harness, NOW, TODAY, type Harness } from '../support/harness.js';
import { checkDay, claimProblems, invariantProblems } from './lib/archive-check.js';
import { describeMix, drawFaultMix, expectedVerdict, type FaultMix } from './lib/fault-mix.js';
import { summaryTable } from './lib/report.js';
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

describe('archive checks', () => {
  it('find rows missing, rows not served, quarantine gaps, ledger totals and rollups that disagree', async () => {
    h = await harness({ entriesPerDay: 300, pageSize: 100, oddEntryRate: 0.1 });
    const engine = await h.engine({ shieldZones: [201], pullZones: [] });
    const runtime = engine.privateRuntime('check');
    const jobs = await runtime.enqueueSync([{ source: 'shield', zone: 201, day: DAY, reason: 'sync' }]);
    runtime.startWorker();
    await runtime.waitFor<DayResult>(jobs);
    await runtime.discard();
    const ref = { source: 'shield' as const, zone: 201, day: DAY };
    const clean = h.db();
    expect(checkDay(clean, h.sim, ref, { at: NOW, wholePass: true }).problems).toEqual([]);
    expect(invariantProblems(clean)).toEqual([]);

    const db = new Database(h.dbPath);
    db.prepare('DELETE FROM shield_event_logs WHERE id IN (SELECT id FROM shield_event_logs LIMIT 2)').run();
    db.prepare(
      `INSERT INTO shield_event_logs (shield_zone_id, log_id, log_date, timestamp) VALUES (201, 'not-served', ?, 1)`,
    ).run(DAY);
    db.prepare('DELETE FROM quarantined_entries WHERE id = (SELECT min(id) FROM quarantined_entries)').run();
    db.prepare('UPDATE ingest_ledger SET archived_entries = archived_entries + 5').run();
    db.close();

    const problems = checkDay(h.db(), h.sim, ref, { at: NOW }).problems.join('\n');
    expect(problems).toMatch(/2 rows missing/);
    expect(problems).toMatch(/1 rows not served \(or twice\): \[1,"not-served",null\]/);
    expect(problems).toMatch(/1 quarantined entries missing/);
    const invariants = invariantProblems(h.db()).join('\n');
    expect(invariants).toMatch(/ledger archived_entries \d+, rows \d+/);
    expect(invariants).toMatch(/quarantined_entries \d+, quarantined rows \d+/);
    expect(invariants).toMatch(/the hourly rollup counts/);
    // A day the ledger calls complete must be whole; one that is not may lack entries, never add any.
    expect(claimProblems(h.db(), h.sim, [ref], NOW).join('\n')).toMatch(/rows missing/);
  });
});

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
