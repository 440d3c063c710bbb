// Pure: the console's statements and request parsing. Values from a request enter SQL only as checked
// integers or quoted literals; a request that is not understood is refused, not guessed at.
import { describe, expect, it } from 'vitest';
import {
  dashboardGuardianSql,
  dashboardHourlySql,
  dashboardTopSql,
  histogramBucket,
  logsNewerSql,
  logsPageSql,
  type LogFilter,
} from '../../src/history/console-statements.js';
import { decodeCursor, encodeCursor, parseLogsRequest } from '../../src/console/logs-request.js';
import { isLoopback, isLoopbackHostHeader, parseListen } from '../../src/console/listen-address.js';
import { ledgerCalendar } from '../../src/console/ledger-calendar.js';
import { downloadName, logsDownload } from '../../src/console/downloads.js';
import type { Day } from '../../src/time/utc-day.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const base: LogFilter = { source: 'shield', zones: [], from: 0, to: 10, fields: {}, text: null };

describe('console statements', () => {
  it('quotes text and checks numbers', () => {
    const sql = logsPageSql(
      { ...base, zones: [201], fields: { country: "x' OR '1'='1" }, text: "it's" },
      null,
      10,
    );
    expect(sql).toContain("country = 'x'' OR ''1''=''1'");
    expect(sql).toContain("lower('it''s')");
    expect(sql).toContain('shield_zone_id IN (201)');
    expect(sql).toMatch(/LIMIT 11$/);
    expect(() => logsPageSql({ ...base, zones: [1.5] }, null, 10)).toThrow(RangeError);
    expect(() => logsPageSql({ ...base, fields: { nope: 'x' } }, null, 10)).toThrow(/no field nope/);
    expect(() => logsPageSql({ ...base, source: 'origin', fields: { status: 'x' } }, null, 10)).toThrow(
      RangeError,
    );
    expect(() => logsPageSql({ ...base, text: 'a\0b' }, null, 10)).toThrow(/NUL/);
  });

  it('pages strictly before the cursor, with a plain bound the views can prune by', () => {
    const sql = logsPageSql(base, { timestamp: 5, logId: "a'b" }, 10);
    expect(sql).toContain("timestamp <= 5 AND (timestamp < 5 OR log_id < 'a''b')");
    expect(sql).not.toMatch(/OFFSET/i);
  });

  it('tails strictly after the cursor, oldest first', () => {
    const sql = logsNewerSql(base, { timestamp: 5, logId: "a'b" }, 10);
    expect(sql).toContain("timestamp >= 5 AND (timestamp > 5 OR log_id > 'a''b')");
    expect(sql).toMatch(/ORDER BY timestamp ASC, log_id ASC LIMIT 11$/);
  });

  it.each([
    [0, 3_600_000, 60_000],
    [0, 86_400_000, 900_000],
    [0, 7 * 86_400_000, 3 * 3_600_000],
    [0, 1000 * 86_400_000, 7 * 86_400_000],
  ])('cuts %i..%i into buckets of %i ms', (from, to, bucket) => {
    expect(histogramBucket(from, to)).toBe(bucket);
  });
});

describe('downloads', () => {
  it.each([
    ['query', Date.parse('2026-11-22T10:05:09.123Z'), 'csv', 'edgelog-query-20261122T100509Z.csv'],
    ['shield', 0, 'parquet', 'edgelog-shield-19700101T000000Z.parquet'],
  ] as const)('names a %s download from fixed words and the time', (what, at, format, name) => {
    expect(downloadName(what, at, format)).toBe(name);
  });

  it('refuses a subject that is not a plain word (it would reach the header)', () => {
    for (const what of ['a"b', 'x\r\nSet-Cookie', '../x', ''])
      expect(() => downloadName(what, 0, 'csv')).toThrow(RangeError);
  });

  it('downloads every column of the filtered entries, newest first, without a page cursor or size', () => {
    const d = logsDownload(
      new URLSearchParams('source=shield&zone=201&from=0&to=10&country=DE&limit=5&cursor=1.YQ&format=csv'),
      NOW,
    );
    expect(d).toEqual({
      sql: "SELECT * FROM shield_event_logs WHERE timestamp >= 0 AND timestamp < 10 AND shield_zone_id IN (201) AND country = 'DE' ORDER BY timestamp DESC, log_id DESC",
      format: 'csv',
      what: 'shield',
    });
    expect(() => logsDownload(new URLSearchParams('format=xlsx'), NOW)).toThrow(/format/);
  });
});

describe('zone dashboards', () => {
  it('counts per hour by status class or action, with the filter quoted as everywhere', () => {
    const origin = dashboardHourlySql({ ...base, source: 'origin', zones: [101] });
    expect(origin).toContain("coalesce(CAST(status_code // 100 AS VARCHAR) || 'xx', 'unknown') AS kind");
    expect(origin).toContain('pull_zone_id IN (101)');
    const shield = dashboardHourlySql({ ...base, fields: { country: "x'y" } });
    expect(shield).toContain("WHEN '403' THEN 'blocked'");
    expect(shield).toContain("country = 'x''y'");
    expect(dashboardTopSql(base, 10)).toMatch(
      /'asn' AS field.*'country' AS field.*'url' AS field|'url' AS field.*'country' AS field.*'asn' AS field/,
    );
  });
});

describe('zone dashboards: the detail panels and the Guardian counters', () => {
  it('splits by error code or rule, keeping 8 apart and the rest as (other)', () => {
    const origin = dashboardHourlySql({ ...base, source: 'origin', zones: [101] }, 'detail');
    expect(origin).toContain("coalesce(error_code, 'none') AS kind");
    expect(origin).toContain('ORDER BY count(*) DESC, 1 LIMIT 8');
    expect(origin).toContain("ELSE '(other)' END AS kind");
    const shield = dashboardHourlySql({ ...base, fields: { rule: "9'1" } }, 'detail');
    expect(shield).toContain("coalesce(rule_id, 'none') AS kind");
    expect(shield).toContain("rule_id = '9''1'");
  });

  it("reads the snapshots of the zones in the range, by their ISO time, each zone's apart", () => {
    const sql = dashboardGuardianSql({ zones: [201, 202], from: NOW - 3_600_000, to: NOW });
    expect(sql).toContain(
      "WHERE taken_at >= '2026-11-22T11:00:00.000Z' AND taken_at < '2026-11-22T12:00:00.000Z' AND shield_zone_id IN (201, 202)",
    );
    // Guardian counters are per Shield zone: never summed over zones, each row one zone's snapshot.
    expect(sql).toMatch(/^SELECT shield_zone_id, taken_at, /);
    expect(sql).toContain(', total_blocked_requests, total_blocked_requests_delta,');
    expect(sql).not.toMatch(/\bsum\(|GROUP BY/);
    expect(sql).toMatch(/ORDER BY shield_zone_id, taken_at, id$/);
    expect(dashboardGuardianSql({ zones: [], from: 0, to: 1 })).not.toContain('shield_zone_id IN');
    expect(() => dashboardGuardianSql({ zones: [1.5], from: 0, to: 1 })).toThrow(RangeError);
    expect(() => dashboardGuardianSql({ zones: [], from: 0.5, to: 1 })).toThrow(RangeError);
  });
});

describe('explorer requests', () => {
  const parse = (q: string) => parseLogsRequest(new URLSearchParams(q), NOW);

  it('reads source, zones, range, fields, text and cursor', () => {
    const cursor = encodeCursor({ timestamp: 7, logId: '<id>\x1b' });
    expect(decodeCursor(cursor)).toEqual({ timestamp: 7, logId: '<id>\x1b' });
    expect(parse(`source=shield&zone=201,202&last=1h&rule=942100&q=admin&cursor=${cursor}&limit=5`)).toEqual({
      filter: {
        source: 'shield',
        zones: [201, 202],
        from: NOW - 3_600_000,
        to: NOW,
        fields: { rule: '942100' },
        text: 'admin',
      },
      cursor: { timestamp: 7, logId: '<id>\x1b' },
      after: null,
      limit: 5,
    });
    expect(parse('from=2026-11-21&to=2026-11-22T00:00:00Z').filter).toMatchObject({
      source: 'origin',
      from: Date.parse('2026-11-21'),
      to: Date.parse('2026-11-22'),
    });
  });

  it.each([
    ['source=evil', /source/],
    ['zone=1;DROP', /zone/],
    ['rule=1', /unknown parameter rule/],
    ['source=origin&status=5x', /status/],
    ['last=2y', /last/],
    ['from=yesterday', /from/],
    ['from=2026-11-22&to=2026-11-21', /before/],
    ['limit=0', /limit/],
    ['cursor=../../etc', /cursor/],
    ['after=../../etc', /cursor/],
    ['cursor=1.YQ&after=1.YQ', /not with after/],
  ])('refuses %s', (q, message) => {
    expect(() => parse(q)).toThrow(message);
  });
});

describe('listen addresses', () => {
  it.each([
    ['127.0.0.1:8470', '127.0.0.1', 8470, true],
    [':9000', '127.0.0.1', 9000, true],
    ['[::1]:1', '::1', 1, true],
    ['localhost:80', 'localhost', 80, true],
    ['0.0.0.0:8470', '0.0.0.0', 8470, false],
    ['[::]:8470', '::', 8470, false],
    ['10.0.0.5:8470', '10.0.0.5', 8470, false],
  ])('%s', (text, host, port, loopback) => {
    expect(parseListen(text)).toEqual({ host, port });
    expect(isLoopback(host)).toBe(loopback);
  });

  it('refuses what is not host:port', () => {
    for (const text of ['8470', 'host:99999', 'a b:1']) expect(() => parseListen(text)).toThrow(RangeError);
  });

  it.each([
    ['127.0.0.1:8470', true],
    ['localhost', true],
    ['[::1]:8470', true],
    ['evil.example:8470', false],
    ['127.0.0.1.evil.example', false],
    [undefined, false],
  ])('Host %s is loopback: %s', (header, ok) => {
    expect(isLoopbackHostHeader(header)).toBe(ok);
  });
});

describe('ledger calendar', () => {
  it('fills the days the ledger has no row for as not fetched', () => {
    const row = {
      pages: 1,
      entries: 3,
      archived_entries: 3,
      quarantined_entries: 0,
      last_error: null,
      updated_at: 1,
    };
    const cal = ledgerCalendar(
      [
        { source: 'shield', zone_id: 201, log_date: '2026-11-21', state: 'complete', ...row },
        {
          source: 'origin',
          zone_id: 101,
          log_date: '2026-11-20',
          state: 'failed',
          ...row,
          last_error: 'boom',
        },
      ],
      '2026-11-20' as Day,
      '2026-11-21' as Day,
    );
    expect(cal.rows.map((r) => [r.source, r.zone, r.cells.map((c) => c.state)])).toEqual([
      ['origin', 101, ['failed', 'not fetched']],
      ['shield', 201, ['not fetched', 'complete']],
    ]);
    expect(cal.totals).toEqual({ failed: 1, complete: 1, 'not fetched': 2 });
  });
});
