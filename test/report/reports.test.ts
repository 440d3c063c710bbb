import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadOnly } from '../../src/store/sqlite/read-only.js';
import { buildGuardianReport } from '../../src/report/guardian-report.js';
import { buildOriginReport } from '../../src/report/origin-report.js';
import { renderReport, runReport } from '../../src/report/run-report.js';
import { buildShieldReport } from '../../src/report/shield-report.js';
import type { ReportScope } from '../../src/report/sources.js';
import { reportWindow } from '../../src/report/window.js';
import type { Db } from '../../src/store/sqlite/database.js';
import {
  RULE_MESSAGE_SQL,
  rawTopSql,
  sqliteReportReads,
  sqliteReportStore,
} from '../../src/store/sqlite/reports.js';
import type { Day } from '../../src/time/utc-day.js';
import { fillGuardian, fillOrigin, fillShield } from './dataset.js';
import { memoryOutput, tempArchive, type TempArchive } from './fixture.js';

let t: TempArchive;
let db: Db;
const now = Date.parse('2024-10-15T18:00:00Z');

beforeEach(() => {
  t = tempArchive();
  fillOrigin(t.archive);
  fillShield(t.archive);
  fillGuardian(t.archive);
  db = openReadOnly(t.path);
});

afterEach(() => {
  if (db.open) db.close();
  t.cleanup();
});

function scope(from: string, to: string, zone: number | null = null): ReportScope {
  return { zone, window: reportWindow({ from: from as Day, to: to as Day, now }) };
}

const nonEmpty = (h: Array<{ start: string; count: number }>) => h.filter((b) => b.count > 0);

describe('origin report', () => {
  it('counts every dimension exactly, over all zones', async () => {
    const r = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2024-10-14', '2024-10-15'),
      top: 10,
    });
    expect(r.total).toBe(10);
    expect(r.zones).toEqual([
      { zone: 101, count: 8 },
      { zone: 202, count: 2 },
    ]);
    expect(r.window.bucket).toBe('hour');
    expect(r.histogram).toHaveLength(48);
    expect(nonEmpty(r.histogram)).toEqual([
      { start: '2024-10-14T10:00:00Z', count: 4 },
      { start: '2024-10-15T03:00:00Z', count: 2 },
      { start: '2024-10-15T05:00:00Z', count: 1 },
      { start: '2024-10-15T12:00:00Z', count: 2 },
      { start: '2024-10-15T23:00:00Z', count: 1 },
    ]);
    expect(r.statusClasses).toEqual([
      { key: '5xx', count: 7 },
      { key: '4xx', count: 2 },
      { key: null, count: 1 },
    ]);
    expect(r.statusCodes).toEqual([
      { key: 502, count: 3 },
      { key: 404, count: 2 },
      { key: 503, count: 2 },
      { key: null, count: 1 },
      { key: 500, count: 1 },
      { key: 504, count: 1 },
    ]);
    expect(r.errorCodes).toEqual([
      { key: 'http_502', count: 3 },
      { key: null, count: 2 },
      { key: 'http_503', count: 2 },
      { key: 'not_found', count: 2 },
      { key: 'http_timeout', count: 1 },
    ]);
    expect(r.requestUrls).toEqual([
      { key: 'https://pz/a', count: 5 },
      { key: 'https://pz/c', count: 2 },
      { key: null, count: 1 },
      { key: 'https://pz/b', count: 1 },
      { key: 'https://pz/d', count: 1 },
    ]);
    expect(r.serverZones).toEqual([
      { key: 'DE', count: 6 },
      { key: 'US', count: 3 },
      { key: null, count: 1 },
    ]);
  });

  it('one zone, and --top cuts the lists', async () => {
    const r = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2024-10-14', '2024-10-15', 101),
      top: 2,
    });
    expect(r.total).toBe(8);
    expect(r.zones).toEqual([{ zone: 101, count: 8 }]);
    expect(r.statusCodes).toEqual([
      { key: 502, count: 3 },
      { key: 404, count: 2 },
    ]);
    expect(r.requestUrls).toEqual([
      { key: 'https://pz/a', count: 5 },
      { key: null, count: 1 },
    ]);
    expect(r.serverZones).toEqual([
      { key: 'DE', count: 6 },
      { key: null, count: 1 },
    ]);
    const z = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2024-10-15', '2024-10-15', 202),
      top: 10,
    });
    expect(z.total).toBe(2);
    expect(z.requestUrls).toEqual([{ key: 'https://pz/c', count: 2 }]);
  });

  it('daily buckets beyond three days; the window edges are exact to the millisecond', async () => {
    const r = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2024-10-10', '2024-10-16'),
      top: 10,
    });
    expect(r.window.bucket).toBe('day');
    expect(r.histogram.map((b) => b.count)).toEqual([0, 0, 0, 1, 4, 6, 1]);
    expect(r.total).toBe(12);
    expect(r.requestUrls.map((u) => u.key)).toContain('https://pz/early');
    const inner = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2024-10-14', '2024-10-15'),
      top: 10,
    });
    expect(inner.requestUrls.map((u) => u.key)).not.toContain('https://pz/early');
    expect(inner.requestUrls.map((u) => u.key)).not.toContain('https://pz/late');
  });

  it('an empty range or an unknown zone is all zeros, not an error', async () => {
    const r = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2023-01-01', '2023-01-02'),
      top: 10,
    });
    expect(r.total).toBe(0);
    expect(r.requestUrls).toEqual([]);
    expect(r.histogram.every((b) => b.count === 0)).toBe(true);
    expect(renderReport(r)).toContain('no origin errors archived in this range');
    expect(
      (
        await buildOriginReport(sqliteReportReads(db), {
          scope: scope('2024-10-15', '2024-10-15', 999),
          top: 10,
        })
      ).total,
    ).toBe(0);
  });

  it('renders a readable report', async () => {
    const text = renderReport(
      await buildOriginReport(sqliteReportReads(db), { scope: scope('2024-10-14', '2024-10-15'), top: 3 }),
      {
        width: 72,
      },
    );
    expect(text).toContain('origin errors · all zones · 2024-10-14 … 2024-10-15 (2 UTC days)');
    expect(text).toContain('total: 10 errors in 2 zones');
    expect(text).toContain('errors per hour (UTC)');
    // The busiest bucket has the full bar; the 23:00 bucket a quarter of it.
    const lines = text.split('\n');
    const full = lines.find((l) => l.startsWith('2024-10-14 10:00'))!;
    const quarter = lines.find((l) => l.startsWith('2024-10-15 23:00'))!;
    expect(full).toMatch(/│█+ +4$/);
    expect(quarter).toMatch(/│█+[▏▎▍▌▋▊▉]? +1$/);
    for (const l of lines.filter((l) => l.includes('│'))) expect(l.length).toBe(72);
    // Top lists with shares and the rest as (others).
    expect(text).toMatch(
      /top status codes\nstatus +count +share\n502 +3 +30\.0%\n404 +2 +20\.0%\n503 +2 +20\.0%\n\(others\) +3 +30\.0%\n/,
    );
    expect(text).toMatch(/errors per zone\nzone +count +share\n101 +8 +80\.0%\n202 +2 +20\.0%/);
  });
});

describe('histogram: days never fetched and hours still to come are not zeros', () => {
  /** The ledger says the day was fetched up to `coveredUntil` (origin, zone 101). */
  const fetched = (day: string, coveredUntil: string) =>
    t.archive.db
      .prepare(
        `INSERT INTO ingest_ledger (source, zone_id, log_date, state, covered_until, updated_at)
         VALUES ('origin', 101, ?, 'complete', ?, 0)`,
      )
      .run(day, Date.parse(coveredUntil));

  it('marks the empty buckets of a day never fetched, and those after now; counted ones stay counts', async () => {
    fetched('2024-10-15', '2024-10-15T17:30:00Z');
    // 2024-10-13 has no ledger row: never fetched. Now is 2024-10-15T18:00.
    const r = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2024-10-13', '2024-10-15', 101),
      top: 10,
      now,
    });
    const at = (start: string) => r.histogram.find((b) => b.start === start)!;
    expect(at('2024-10-13T05:00:00Z')).toEqual({
      start: '2024-10-13T05:00:00Z',
      count: 0,
      status: 'not fetched',
    });
    // 2024-10-14 has entries but no ledger row: its counted hours stay counts, its empty ones are unknown.
    expect(at('2024-10-14T10:00:00Z')).toEqual({ start: '2024-10-14T10:00:00Z', count: 4 });
    expect(at('2024-10-14T11:00:00Z').status).toBe('not fetched');
    expect(at('2024-10-15T01:00:00Z')).toEqual({ start: '2024-10-15T01:00:00Z', count: 0 });
    // Fetched up to 17:30: the 17:00 hour is only partly known; 18:00 on has not happened yet.
    expect(at('2024-10-15T17:00:00Z').status).toBe('not fetched');
    expect(at('2024-10-15T18:00:00Z').status).toBe('future');
    expect(at('2024-10-15T21:00:00Z')).toEqual({ start: '2024-10-15T21:00:00Z', count: 0, status: 'future' });

    const lines = renderReport(r, { width: 72 }).split('\n');
    const line = (label: string) => lines.find((l) => l.startsWith(label))!;
    expect(line('2024-10-13 05:00')).toMatch(/│ *not fetched *$/);
    expect(line('2024-10-15 20:00')).toMatch(/│ *future *$/);
    expect(line('2024-10-15 01:00')).toMatch(/│ +0$/);
    expect(line('2024-10-14 10:00')).toMatch(/│█+ +4$/);
  });

  it('daily buckets: the days never fetched', async () => {
    fetched('2024-10-12', '2024-10-13T00:00:00Z');
    const r = await buildOriginReport(sqliteReportReads(db), {
      scope: scope('2024-10-10', '2024-10-16', 101),
      top: 10,
      now,
    });
    // 10-13 and 10-16 hold entries (counts stay counts); 10-12 was fetched and is empty.
    expect(r.histogram.map((b) => b.status ?? b.count)).toEqual([
      'not fetched',
      'not fetched',
      0,
      1,
      4,
      4,
      1,
    ]);
  });
});

describe('shield report', () => {
  it('counts every dimension exactly', async () => {
    const r = await buildShieldReport(sqliteReportReads(db), {
      scope: scope('2024-10-15', '2024-10-15'),
      top: 10,
    });
    expect(r.total).toBe(11);
    expect(r.zones).toEqual([
      { zone: 7, count: 8 },
      { zone: 8, count: 3 },
    ]);
    expect(nonEmpty(r.histogram)).toEqual([
      { start: '2024-10-15T01:00:00Z', count: 6 },
      { start: '2024-10-15T02:00:00Z', count: 2 },
      { start: '2024-10-15T23:00:00Z', count: 3 },
    ]);
    expect(r.rules).toEqual([
      { key: '942100', count: 5, message: 'SQL injection' },
      { key: '913100', count: 3, message: 'Scanner' },
      { key: '941100', count: 2, message: 'XSS' },
      { key: null, count: 1, message: null },
    ]);
    expect(r.severities).toEqual([
      { key: 'CRITICAL', count: 5 },
      { key: 'NOTICE', count: 3 },
      { key: 'WARNING', count: 2 },
      { key: null, count: 1 },
    ]);
    expect(r.statuses).toEqual([
      { key: 'BLOCKED', count: 8 },
      { key: 'LOGGED', count: 2 },
      { key: null, count: 1 },
    ]);
    expect(r.countries).toEqual([
      { key: 'US', count: 4 },
      { key: 'CN', count: 3 },
      { key: 'DE', count: 3 },
      { key: null, count: 1 },
    ]);
    expect(r.asns).toEqual([
      { key: 'AS15169', count: 4 },
      { key: 'AS3320', count: 3 },
      { key: 'AS4134', count: 3 },
      { key: null, count: 1 },
    ]);
    expect(r.methods).toEqual([
      { key: 'GET', count: 6 },
      { key: 'POST', count: 4 },
      { key: null, count: 1 },
    ]);
  });

  it('one zone', async () => {
    const r = await buildShieldReport(sqliteReportReads(db), {
      scope: scope('2024-10-15', '2024-10-16', 7),
      top: 10,
    });
    expect(r.total).toBe(9);
    expect(r.rules[0]).toEqual({ key: '942100', count: 6, message: 'SQL injection' });
    expect(r.countries).toEqual([
      { key: 'US', count: 5 },
      { key: 'DE', count: 3 },
      { key: null, count: 1 },
    ]);
  });

  it('renders rules with their names', async () => {
    const text = renderReport(
      await buildShieldReport(sqliteReportReads(db), { scope: scope('2024-10-15', '2024-10-15'), top: 10 }),
    );
    expect(text).toContain('Shield events · all zones · 2024-10-15 (1 UTC day)');
    expect(text).toMatch(/top rules\nrule +name +count +share\n942100 +SQL injection +5 +45\.5%/);
    expect(text).toMatch(/\(none\) +1 +9\.1%/);
  });
});

describe('guardian report', () => {
  it('per zone: counters at each snapshot, deltas, resets, failed calls', async () => {
    const r = await buildGuardianReport(sqliteReportReads(db), {
      scope: scope('2024-10-15', '2024-10-15'),
      top: 10,
    });
    expect(r.zones.map((z) => z.zone)).toEqual([7, 9]);
    const z7 = r.zones[0]!;
    expect(z7.failed).toBe(1);
    expect(z7.snapshots.map((s) => s.takenAt)).toEqual([
      '2024-10-15T00:00:00.000Z',
      '2024-10-15T00:15:00.000Z',
      '2024-10-15T00:45:00.000Z',
    ]);
    expect(z7.snapshots.map((s) => s.counters.total_requests_inspected)).toEqual([100, 150, 20]);
    expect(z7.snapshots.map((s) => s.deltas.total_requests_inspected)).toEqual([
      { value: null, reset: false },
      { value: 50, reset: false },
      { value: 20, reset: true },
    ]);
    expect(z7.snapshots.map((s) => s.deltas.total_blocked_requests.value)).toEqual([null, 2, 3]);
    expect(z7.summary.find((s) => s.counter === 'total_requests_inspected')).toEqual({
      counter: 'total_requests_inspected',
      first: 100,
      last: 20,
      increase: 70,
      resets: 1,
    });
    expect(z7.summary.find((s) => s.counter === 'total_rate_limited')).toMatchObject({
      increase: 2,
      resets: 0,
    });
    expect(r.zones[1]!.snapshots).toHaveLength(1);
  });

  it('one zone; the reset is shown as a reset', async () => {
    const r = await buildGuardianReport(sqliteReportReads(db), {
      scope: scope('2024-10-14', '2024-10-15', 7),
      top: 10,
    });
    expect(r.zones).toHaveLength(1);
    expect(r.zones[0]!.snapshots).toHaveLength(4);
    const text = renderReport(r, { top: 2 });
    expect(text).toContain('zone 7: 4 snapshots, 1 failed call');
    expect(text).toContain('last 2 snapshots (2 earlier ones in --format json)');
    expect(text).toContain('20 (reset)');
    expect(text).toContain('150 (+50)');
    // No negative delta anywhere.
    expect(text).not.toMatch(/\(-|\+-/);
  });

  it('no snapshots', async () => {
    const r = await buildGuardianReport(sqliteReportReads(db), {
      scope: scope('2024-01-01', '2024-01-01'),
      top: 10,
    });
    expect(r.zones).toEqual([]);
    expect(renderReport(r)).toContain('no API Guardian snapshots in this range');
  });
});

describe('runReport', () => {
  it('--format json prints the same data as one JSON object', async () => {
    const out = memoryOutput();
    const data = await runReport(
      sqliteReportStore(db),
      'shield',
      { from: '2024-10-15' as Day, now, format: 'json' },
      out,
    );
    expect(JSON.parse(out.text())).toEqual(JSON.parse(JSON.stringify(data)));
    expect(data.window).toMatchObject({ from: '2024-10-15', to: '2024-10-15' });
  });

  it('defaults to the last 7 UTC days including today', async () => {
    const out = memoryOutput();
    const data = await runReport(sqliteReportStore(db), 'origin', { now }, out);
    expect(data.window).toMatchObject({ from: '2024-10-09', to: '2024-10-15', bucket: 'day' });
    expect(out.text()).toContain('2024-10-09 … 2024-10-15 (7 UTC days)');
    expect(out.text()).toContain('total: 11 errors in 2 zones');
  });

  it('a file without the archive tables fails with a clear error', async () => {
    const other = new Database(`${t.dir}/other.db`);
    other.exec('CREATE TABLE x (y)');
    other.close();
    const ro = openReadOnly(`${t.dir}/other.db`);
    try {
      const err = await runReport(sqliteReportStore(ro), 'origin', { now }, memoryOutput()).catch(
        (e: unknown) => e,
      );
      expect((err as Error).message).toBe(
        'cannot read the archive (is it an edgelog database? try `edgelog migrate`)',
      );
      expect(((err as Error).cause as Error).message).toBe('no such table: origin_hourly');
    } finally {
      ro.close();
    }
  });

  it('refuses a backwards range', async () => {
    await expect(
      runReport(
        sqliteReportStore(db),
        'origin',
        { from: '2024-10-15' as Day, to: '2024-10-01' as Day, now },
        memoryOutput(),
      ),
    ).rejects.toThrow('--from 2024-10-15 is after --to 2024-10-01');
  });
});

describe('query plans: the raw tables are read through their (zone, timestamp) key', () => {
  const plan = (sql: string, params: Record<string, unknown>) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail);
  const params = { zones: '[101,202]', start: 0, end: 1, limit: 10 };

  it.each([
    ['origin request_url', rawTopSql('origin', 'request_url'), 'origin_error_logs', 'pull_zone_id'],
    ['origin server_zone', rawTopSql('origin', 'server_zone'), 'origin_error_logs', 'pull_zone_id'],
    ['shield country', rawTopSql('shield', 'country'), 'shield_event_logs', 'shield_zone_id'],
    ['shield rule message', RULE_MESSAGE_SQL, 'shield_event_logs', 'shield_zone_id'],
  ])('%s', (_name, sql, table, zone) => {
    const detail = plan(sql, sql.includes('@rule') ? { ...params, rule: 'x', limit: undefined } : params);
    expect(detail).toContain(
      `SEARCH ${table} USING INDEX ${table}_key (${zone}=? AND timestamp>? AND timestamp<?)`,
    );
    expect(detail.some((d) => d.startsWith(`SCAN ${table}`))).toBe(false);
  });

  it('no statement any report runs scans a raw table, and one zone reads its rollup by primary key', async () => {
    const statements: string[] = [];
    const traced = new Database(t.path, { readonly: true, verbose: (sql) => statements.push(String(sql)) });
    try {
      const all = scope('2024-10-14', '2024-10-15');
      const one = scope('2024-10-14', '2024-10-15', 101);
      for (const s of [all, one]) {
        await buildOriginReport(sqliteReportReads(traced), { scope: s, top: 5 });
        await buildShieldReport(sqliteReportReads(traced), {
          scope: { ...s, zone: s.zone === null ? null : 7 },
          top: 5,
        });
      }
      const selects = statements.filter((s) => /^\s*SELECT/i.test(s));
      expect(selects.length).toBeGreaterThan(10);
      for (const sql of selects) {
        const detail = (traced.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map(
          (r) => r.detail,
        );
        for (const d of detail) expect(d).not.toMatch(/^SCAN (origin_error_logs|shield_event_logs)\b/);
        if (/FROM origin_hourly WHERE pull_zone_id = /.test(sql)) {
          expect(detail[0]).toBe(
            'SEARCH origin_hourly USING PRIMARY KEY (pull_zone_id=? AND hour>? AND hour<?)',
          );
        }
      }
      expect(selects.some((s) => /FROM origin_hourly WHERE pull_zone_id = /.test(s))).toBe(true);
    } finally {
      traced.close();
    }
  });
});
