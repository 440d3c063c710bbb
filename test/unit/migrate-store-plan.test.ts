// The pure parts of migrate-store: which columns are copied, the COPY text, U+0000, and the checks.
import { describe, expect, it } from 'vitest';
import { mergeSql } from '../../src/store/migrate-store/copy-sql.js';
import { copyText, escapeNul } from '../../src/store/migrate-store/migrate-store.js';
import { copyColumns, TABLES } from '../../src/store/migrate-store/tables.js';
import { groupKey, mismatches, notes, rollupCheck, rowsCheck } from '../../src/store/migrate-store/verify.js';

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

  it('leaves the ledger to its own merge (by the ledger rules), and copies entries without counting rollups from them', () => {
    expect(() =>
      mergeSql(spec('ingest_ledger'), {
        names: ['source', 'zone_id', 'log_date', 'updated_at'],
        types: ['text', 'bigint', 'text', 'bigint'],
      }),
    ).toThrow('ingest_ledger is merged by mergeLedgerBatch, not by one statement');
    const origin = mergeSql(spec('origin_error_logs'), {
      names: ['pull_zone_id', 'log_id', 'timestamp', 'status_code', 'error_code'],
      types: ['bigint', 'text', 'bigint', 'bigint', 'text'],
    });
    expect(origin).toContain('ON CONFLICT (pull_zone_id, timestamp, log_id) DO NOTHING');
    // The rollups are copied as rows of their own (the source's counts include pruned days), so the
    // entries' merge only counts what it inserted.
    expect(origin).toContain('DO NOTHING RETURNING 1');
    expect(origin).toContain('SELECT count(*)::bigint AS inserted');
    expect(origin).not.toContain('origin_hourly');
  });
});

describe('the final check', () => {
  const totals = (entries: Array<[unknown[], number]>) => new Map(entries.map(([k, n]) => [groupKey(k), n]));
  const source = totals([
    [[101, '2026-11-21'], 1000],
    [[101, '2026-11-22'], 500],
  ]);

  it('compares only the source groups: the target data of its own passes, and is named', () => {
    const c = rowsCheck(
      'origin_error_logs',
      ['pull_zone_id', 'log_date'],
      source,
      totals([
        [[101, '2026-11-21'], 1000],
        [[101, '2026-11-22'], 520], // 20 of its own in a copied day
        [[999, '2026-11-22'], 7], // another zone
        [[101, '2026-10-01'], 3], // another day
      ]),
    );
    expect(c).toMatchObject({ source: 1500, target: 1520, missing: 0, extra: 20, over: 1, outside: 10 });
    expect(mismatches([c])).toEqual([]);
    expect(notes([c])).toEqual([
      "origin_error_logs: the target holds 20 rows more than the source in 1 of the source's (pull_zone_id, log_date) (its own, from before the copy): left as they are",
      "origin_error_logs: the target also holds 10 rows outside the source's (pull_zone_id, log_date) (its own data): left as they are, not compared",
    ]);
  });

  it('rows missing: run it again; hourly counts that differ: recount them, running again does not help', () => {
    const rows = rowsCheck(
      'origin_error_logs',
      ['pull_zone_id', 'log_date'],
      source,
      totals([
        [[101, '2026-11-21'], 999],
        [[999, '2026-11-21'], 5000], // another zone's rows do not hide the missing one
      ]),
    );
    const day = Date.parse('2026-11-21T00:00:00Z');
    const rollup = rollupCheck(
      'origin_hourly',
      'origin_error_logs',
      totals([[[101, day], 1000]]),
      totals([[[101, day], 1001]]),
      totals([[[101, day], 1000]]),
    );
    expect(mismatches([rows, rollup])).toEqual([
      'origin_error_logs: 501 rows of the source are not in the target, in 2 of its 2 (pull_zone_id, log_date) ' +
        '((101, 2026-11-21): 1 of 1,000; (101, 2026-11-22): 500 of 500): run migrate-store again, which copies ' +
        'only what is missing; if they are still missing, something in the target refuses or removes them ' +
        '(a trigger, a rule, the retention of a worker using it)',
      "origin_hourly: in 1 of the source's zone-days the target's hourly counts do not add up to its " +
        'origin_error_logs (zone 101 2026-11-21: 1,001 counted, 1,000 entries): running migrate-store again ' +
        'does not change them (it counts only the rows it inserts); recount those days from the entries ' +
        '(docs/POSTGRES.md, "Recounting the hourly rollups")',
    ]);
    expect(notes([rows])).toEqual([
      "origin_error_logs: the target also holds 5,000 rows outside the source's (pull_zone_id, log_date) (its own data): left as they are, not compared",
    ]);
    // The target's own entries in a copied day, counted with them: consistent, so it passes.
    const own = rollupCheck(
      'origin_hourly',
      'origin_error_logs',
      totals([[[101, day], 1000]]),
      totals([[[101, day], 1020]]),
      totals([[[101, day], 1020]]),
    );
    expect(mismatches([own])).toEqual([]);
  });
});

describe('alert_notifications', () => {
  it('takes the source row when it got further (delivered, more attempts, handed to the queue)', () => {
    const sql = mergeSql(spec('alert_notifications'), {
      names: ['id', 'hook', 'enqueued_at', 'delivered_at', 'attempts'],
      types: ['text', 'text', 'bigint', 'bigint', 'bigint'],
    });
    expect(sql).toContain(
      'ON CONFLICT (id, hook) DO UPDATE SET enqueued_at = excluded.enqueued_at, delivered_at = excluded.delivered_at, attempts = excluded.attempts ' +
        'WHERE (t.delivered_at IS NOT NULL, t.attempts, t.enqueued_at IS NOT NULL) < ' +
        '(excluded.delivered_at IS NOT NULL, excluded.attempts, excluded.enqueued_at IS NOT NULL)',
    );
  });
});
