import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadOnly } from '../../src/store/sqlite/read-only.js';
import { buildOriginReport } from '../../src/report/origin-report.js';
import { buildShieldReport } from '../../src/report/shield-report.js';
import { reportWindow } from '../../src/report/window.js';
import type { Db } from '../../src/store/sqlite/database.js';
import { sqliteReportReads } from '../../src/store/sqlite/reports.js';
import { migrate } from '../../src/store/sqlite/migrate.js';
import type { Day } from '../../src/time/utc-day.js';
import { fillGuardian, fillOrigin, fillShield } from './dataset.js';
import { tempArchive, type TempArchive } from './fixture.js';

let t: TempArchive;
let db: Db;

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

const all = (sql: string) => db.prepare(sql).all();

describe('migration 0002_rollup_views', () => {
  it('is applied by openArchive and recorded', () => {
    expect(migrate(t.archive.db).find((r) => r.name === '0002_rollup_views.sql')?.status).toBe(
      'already-applied',
    );
    expect(
      db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'view' ORDER BY name`).pluck().all(),
    ).toEqual([
      'api_guardian_deltas',
      'origin_errors_daily',
      'origin_errors_hourly',
      'shield_events_daily',
      'shield_events_hourly',
    ]);
  });

  it('origin_errors_hourly: one row per zone, hour, status and error code, NULLs restored', () => {
    expect(
      all(`SELECT * FROM origin_errors_hourly WHERE pull_zone_id = 101 ORDER BY hour, status_code`),
    ).toEqual([
      {
        pull_zone_id: 101,
        hour: '2024-10-13T23:00:00Z',
        status_class: '5xx',
        status_code: 502,
        error_code: 'http_502',
        count: 1,
      },
      {
        pull_zone_id: 101,
        hour: '2024-10-14T10:00:00Z',
        status_class: '5xx',
        status_code: 502,
        error_code: 'http_502',
        count: 3,
      },
      {
        pull_zone_id: 101,
        hour: '2024-10-14T10:00:00Z',
        status_class: '5xx',
        status_code: 504,
        error_code: 'http_timeout',
        count: 1,
      },
      {
        pull_zone_id: 101,
        hour: '2024-10-15T03:00:00Z',
        status_class: '4xx',
        status_code: 404,
        error_code: 'not_found',
        count: 2,
      },
      {
        pull_zone_id: 101,
        hour: '2024-10-15T05:00:00Z',
        status_class: null,
        status_code: null,
        error_code: null,
        count: 1,
      },
      {
        pull_zone_id: 101,
        hour: '2024-10-15T23:00:00Z',
        status_class: '5xx',
        status_code: 500,
        error_code: null,
        count: 1,
      },
      {
        pull_zone_id: 101,
        hour: '2024-10-16T00:00:00Z',
        status_class: '5xx',
        status_code: 502,
        error_code: 'http_502',
        count: 1,
      },
    ]);
  });

  it('origin_errors_daily: per day and status class', () => {
    expect(
      all(`SELECT day, status_class, sum(count) AS n FROM origin_errors_daily WHERE pull_zone_id = 101
           GROUP BY day, status_class ORDER BY day, status_class`),
    ).toEqual([
      { day: '2024-10-13', status_class: '5xx', n: 1 },
      { day: '2024-10-14', status_class: '5xx', n: 4 },
      { day: '2024-10-15', status_class: null, n: 1 },
      { day: '2024-10-15', status_class: '4xx', n: 2 },
      { day: '2024-10-15', status_class: '5xx', n: 1 },
      { day: '2024-10-16', status_class: '5xx', n: 1 },
    ]);
    expect(all(`SELECT * FROM origin_errors_daily WHERE pull_zone_id = 202`)).toEqual([
      {
        pull_zone_id: 202,
        day: '2024-10-15',
        status_class: '5xx',
        status_code: 503,
        error_code: 'http_503',
        count: 2,
      },
    ]);
  });

  it('origin views agree with the report and with the entries', async () => {
    const report = await buildOriginReport(sqliteReportReads(db), {
      scope: {
        zone: null,
        window: reportWindow({ from: '2024-10-14' as Day, to: '2024-10-15' as Day, now: 0 }),
      },
      top: 10,
    });
    const daily = db
      .prepare(`SELECT sum(count) FROM origin_errors_daily WHERE day BETWEEN '2024-10-14' AND '2024-10-15'`)
      .pluck()
      .get();
    const hourly = db
      .prepare(
        `SELECT sum(count) FROM origin_errors_hourly WHERE hour >= '2024-10-14' AND hour < '2024-10-16'`,
      )
      .pluck()
      .get();
    const raw = db
      .prepare(`SELECT count(*) FROM origin_error_logs WHERE time >= '2024-10-14' AND time < '2024-10-16'`)
      .pluck()
      .get();
    expect([daily, hourly, raw]).toEqual([report.total, report.total, report.total]);
  });

  it('shield_events_hourly and shield_events_daily: per rule, severity and status', async () => {
    expect(all(`SELECT * FROM shield_events_hourly WHERE shield_zone_id = 8`)).toEqual([
      {
        shield_zone_id: 8,
        hour: '2024-10-15T23:00:00Z',
        rule_id: '913100',
        severity: 'NOTICE',
        status: 'BLOCKED',
        count: 3,
      },
    ]);
    expect(
      all(`SELECT * FROM shield_events_daily WHERE shield_zone_id = 7 ORDER BY day, count DESC`),
    ).toEqual([
      {
        shield_zone_id: 7,
        day: '2024-10-15',
        rule_id: '942100',
        severity: 'CRITICAL',
        status: 'BLOCKED',
        count: 5,
      },
      {
        shield_zone_id: 7,
        day: '2024-10-15',
        rule_id: '941100',
        severity: 'WARNING',
        status: 'LOGGED',
        count: 2,
      },
      { shield_zone_id: 7, day: '2024-10-15', rule_id: null, severity: null, status: null, count: 1 },
      {
        shield_zone_id: 7,
        day: '2024-10-16',
        rule_id: '942100',
        severity: 'CRITICAL',
        status: 'BLOCKED',
        count: 1,
      },
    ]);
    const report = await buildShieldReport(sqliteReportReads(db), {
      scope: {
        zone: null,
        window: reportWindow({ from: '2024-10-15' as Day, to: '2024-10-15' as Day, now: 0 }),
      },
      top: 10,
    });
    expect(
      db.prepare(`SELECT sum(count) FROM shield_events_daily WHERE day = '2024-10-15'`).pluck().get(),
    ).toBe(report.total);
  });

  it('api_guardian_deltas: changes since the previous snapshot, resets not negative, failed calls left out', () => {
    expect(
      all(`SELECT shield_zone_id AS zone, taken_at, previous_taken_at AS prev,
             total_requests_inspected AS inspected, total_requests_inspected_delta AS d_inspected,
             total_blocked_requests_delta AS d_blocked, total_rate_limited_delta AS d_rate, reset
           FROM api_guardian_deltas ORDER BY zone, taken_at`),
    ).toEqual([
      {
        zone: 7,
        taken_at: '2024-10-14T23:45:00.000Z',
        prev: null,
        inspected: 50,
        d_inspected: null,
        d_blocked: null,
        d_rate: null,
        reset: 0,
      },
      {
        zone: 7,
        taken_at: '2024-10-15T00:00:00.000Z',
        prev: '2024-10-14T23:45:00.000Z',
        inspected: 100,
        d_inspected: 50,
        d_blocked: 2,
        d_rate: 0,
        reset: 0,
      },
      {
        zone: 7,
        taken_at: '2024-10-15T00:15:00.000Z',
        prev: '2024-10-15T00:00:00.000Z',
        inspected: 150,
        d_inspected: 50,
        d_blocked: 2,
        d_rate: 0,
        reset: 0,
      },
      {
        zone: 7,
        taken_at: '2024-10-15T00:45:00.000Z',
        prev: '2024-10-15T00:15:00.000Z',
        inspected: 20,
        d_inspected: 20,
        d_blocked: 3,
        d_rate: 2,
        reset: 1,
      },
      {
        zone: 9,
        taken_at: '2024-10-15T06:00:00.000Z',
        prev: null,
        inspected: 1,
        d_inspected: null,
        d_blocked: null,
        d_rate: null,
        reset: 0,
      },
    ]);
  });
});
