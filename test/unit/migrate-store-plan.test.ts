// The pure parts of migrate-store: which columns are copied, the COPY text, U+0000, and the checks.
import { describe, expect, it } from 'vitest';
import { mergeSql } from '../../src/store/migrate-store/copy-sql.js';
import { copyText, escapeNul } from '../../src/store/migrate-store/migrate-store.js';
import { copyColumns, TABLES } from '../../src/store/migrate-store/tables.js';
import { mismatches } from '../../src/store/migrate-store/verify.js';

const spec = (name: string) => TABLES.find((t) => t.name === name)!;

describe('copyColumns', () => {
  it("copies the source's columns less the skipped ones, with the target's types", () => {
    const cols = copyColumns(
      spec('api_guardian_snapshots'),
      ['id', 'shield_zone_id', 'taken_at', 'error'],
      [
        { name: 'id', type: 'bigint' },
        { name: 'shield_zone_id', type: 'bigint' },
        { name: 'taken_at', type: 'text' },
        { name: 'error', type: 'text' },
        { name: 'added_later', type: 'text' },
      ],
    );
    expect(cols).toEqual({
      names: ['shield_zone_id', 'taken_at', 'error'],
      types: ['bigint', 'text', 'text'],
    });
  });

  it('refuses a source column the target lacks, and a missing key column', () => {
    const target = [
      { name: 'rule', type: 'text' },
      { name: 'zone_id', type: 'bigint' },
    ];
    expect(() => copyColumns(spec('alert_state'), ['rule', 'zone_id', 'extra'], target)).toThrow(
      'alert_state: the target has no column extra (the schemas differ)',
    );
    expect(() => copyColumns(spec('alert_state'), ['rule'], target)).toThrow(
      'alert_state: the source has no column zone_id',
    );
  });
});

describe('batches', () => {
  it('writes NULL, numbers and escaped text as COPY text', () => {
    expect(copyText([[1, null, 'a\tb\\c\nd', 2.5]])).toBe('1\t\\N\ta\\tb\\\\c\\nd\t2.5\n');
  });

  it('writes U+0000 as the text \\u0000 and counts the rows it changed', () => {
    const rows = [
      ['a\u0000b', 'ok'],
      ['fine', null],
      ['\u0000', '\u0000'],
    ];
    expect(escapeNul(rows)).toBe(2);
    expect(rows).toEqual([
      ['a\\u0000b', 'ok'],
      ['fine', null],
      ['\\u0000', '\\u0000'],
    ]);
  });

  it('merges the ledger newest-first with its leases cleared, and counts entry rollups from the rows inserted', () => {
    const ledger = mergeSql(spec('ingest_ledger'), {
      names: ['source', 'zone_id', 'log_date', 'lease_owner', 'lease_until', 'updated_at'],
      types: ['text', 'bigint', 'text', 'text', 'bigint', 'bigint'],
    });
    expect(ledger).toContain('SELECT source, zone_id, log_date, NULL, NULL, updated_at FROM');
    expect(ledger).toContain('WHERE t.updated_at < excluded.updated_at');
    const origin = mergeSql(spec('origin_error_logs'), {
      names: ['pull_zone_id', 'log_id', 'timestamp', 'status_code', 'error_code'],
      types: ['bigint', 'text', 'bigint', 'bigint', 'text'],
    });
    expect(origin).toContain('ON CONFLICT (pull_zone_id, timestamp, log_id) DO NOTHING');
    expect(origin).toContain('INSERT INTO origin_hourly');
    expect(origin).toContain(
      "coalesce(status_code, 0) AS status_code, coalesce(error_code, '') AS error_code",
    );
  });
});

describe('mismatches', () => {
  it('passes equal counts and says what a difference likely means', () => {
    expect(mismatches([{ table: 'a', measure: 'rows', source: 3, target: 3 }])).toEqual([]);
    expect(
      mismatches([
        { table: 'a', measure: 'rows', source: 1000, target: 999 },
        { table: 'origin_hourly', measure: 'sum(count)', source: 5, target: 6 },
      ]),
    ).toEqual([
      'a rows: 1,000 in the source, 999 in the target (rows are missing: run migrate-store again)',
      'origin_hourly sum(count): 5 in the source, 6 in the target (the target held rows of its own before the copy, or a worker wrote to it meanwhile)',
    ]);
  });
});
