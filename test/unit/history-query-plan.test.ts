// The pure parts of the history query: which zone-days the store is asked for, which tables a statement
// reads, the names found on disk that count as partitions, and values as text.
import { describe, expect, it } from 'vitest';
import { decimalValue, isoFromMicros } from '../../src/history/duckdb-values.js';
import { dayOfDir, sourceOfDir, zoneOfDir } from '../../src/history/published-days.js';
import { historyTablesIn } from '../../src/history/statement-tables.js';
import { storeRowsSql, zoneDayPredicate, ZoneDayError } from '../../src/history/store-rows-sql.js';

const f = '/h/x/data.parquet';

describe('storeRowsSql', () => {
  it('reads every row when the history holds nothing', () => {
    expect(storeRowsSql('origin_error_logs', [])).toBe(
      'SELECT pull_zone_id, log_id, log_date, timestamp, request_url, message, error_code, status_code, server_zone, log, labels, parse_error FROM origin_error_logs',
    );
  });
  it('leaves out the zone-days in history, grouped by zone', () => {
    const sql = storeRowsSql('shield_event_logs', [
      { zone: 201, day: '2026-11-20', file: f },
      { zone: 201, day: '2026-11-21', file: f },
      { zone: 202, day: '2026-11-20', file: f },
    ]);
    expect(sql).toMatch(
      / FROM shield_event_logs WHERE NOT \(\(shield_zone_id = 201 AND log_date IN \('2026-11-20', '2026-11-21'\)\) OR \(shield_zone_id = 202 AND log_date IN \('2026-11-20'\)\)\)$/,
    );
  });
  it('keys the quarantine by source too', () => {
    expect(
      zoneDayPredicate('quarantined_entries', [
        { zone: 1, day: '2026-11-20', source: 'origin', file: f },
        { zone: 1, day: '2026-11-20', source: 'shield', file: f },
      ]),
    ).toBe(
      "(source = 'origin' AND zone_id = 1 AND log_date IN ('2026-11-20')) OR (source = 'shield' AND zone_id = 1 AND log_date IN ('2026-11-20'))",
    );
    expect(() => zoneDayPredicate('quarantined_entries', [{ zone: 1, day: '2026-11-20', file: f }])).toThrow(
      ZoneDayError,
    );
  });
  it("reads only the rows within the statement's own bounds on timestamp", () => {
    expect(storeRowsSql('origin_error_logs', [], {}, { min: -5n, max: 1795219199999n })).toMatch(
      / FROM origin_error_logs WHERE timestamp >= -5 AND timestamp <= 1795219199999$/,
    );
    expect(storeRowsSql('origin_error_logs', [], { from: '2026-11-20' }, { min: null, max: 9n })).toMatch(
      / WHERE log_date >= '2026-11-20' AND timestamp <= 9$/,
    );
    // The quarantine has no timestamp: no bound.
    expect(storeRowsSql('quarantined_entries', [], {}, { min: 1n, max: 2n })).toMatch(
      / FROM quarantined_entries$/,
    );
  });
  it.each([
    [{ zone: -1, day: '2026-11-20', file: f }],
    [{ zone: 1.5, day: '2026-11-20', file: f }],
    [{ zone: 1, day: "2026-11-20') OR (1=1", file: f }],
  ])('refuses what is not a zone id or a day: %j', (d) => {
    expect(() => storeRowsSql('origin_error_logs', [d])).toThrow(ZoneDayError);
  });
});

describe('partition names', () => {
  it.each([
    ['zone=201', 201],
    ['zone=0', 0],
    ['zone=-1', null],
    ['zone=1e3', null],
    ['zone=201 ', null],
    ['zone=', null],
  ])('zone of %j is %j', (name, zone) => expect(zoneOfDir(name)).toBe(zone));
  it.each([
    ['day=2026-11-20', '2026-11-20'],
    ['day=2026-11-20.tmp', null],
    ["day=2026-11-20'", null],
  ])('day of %j is %j', (name, day) => expect(dayOfDir(name)).toBe(day));
  it('source of a quarantine directory', () => {
    expect(sourceOfDir('source=shield')).toBe('shield');
    expect(sourceOfDir('source=guardian')).toBeNull();
  });
});

describe('historyTablesIn', () => {
  const base = (table_name: string, schema_name = '', catalog_name = '') => ({
    type: 'BASE_TABLE',
    table_name,
    schema_name,
    catalog_name,
  });
  it('finds base tables anywhere in the tree, once each, in the layout order', () => {
    const tree = [
      { from: base('shield_event_logs'), where: { subquery: [base('ORIGIN_ERROR_LOGS'), base('x')] } },
    ];
    expect(historyTablesIn(tree)).toEqual(['origin_error_logs', 'shield_event_logs']);
  });
  it('ignores a table of another schema or catalog', () => {
    expect(
      historyTablesIn([base('origin_error_logs', 'other'), base('quarantined_entries', 'main', 'memory')]),
    ).toEqual(['quarantined_entries']);
  });
});

describe('values', () => {
  it('timestamps as ISO text with milliseconds', () => {
    expect(isoFromMicros(1_763_942_400_123_456n, () => 'x')).toBe('2025-11-24T00:00:00.123Z');
    expect(isoFromMicros(-1n, () => 'x')).toBe('1969-12-31T23:59:59.999Z');
    expect(isoFromMicros(10n ** 20n, () => 'far')).toBe('far');
  });
  it('decimals as numbers when a double holds them', () => {
    expect(decimalValue('12.50')).toBe(12.5);
    expect(decimalValue('1234567890123456.7')).toBe('1234567890123456.7');
  });
});
