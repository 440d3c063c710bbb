// The range of `timestamp` a statement's own filter allows (statement-bounds.ts), over DuckDB's real parse
// trees: bounds only where the one SELECT that reads the table says so in a conjunction, none elsewhere.
import { describe, expect, it } from 'vitest';
import { serializeSql } from '../../src/history/statement-tables.js';
import {
  dayBounds,
  guardsMayHelp,
  mayHoldDay,
  mayHoldRows,
  timeOrder,
  timestampBounds,
  type DayBounds,
  type TimestampBounds,
} from '../../src/history/statement-bounds.js';

async function bounds(sql: string): Promise<TimestampBounds | null> {
  const tree = await serializeSql(sql);
  if (tree.error) throw new Error(tree.error_message);
  return timestampBounds(tree.statements, 'origin_error_logs');
}

const T = 'origin_error_logs';

describe('timestampBounds', () => {
  it.each<[string, bigint | null, bigint | null]>([
    [`SELECT * FROM ${T} WHERE timestamp >= 100 AND timestamp < 200`, 100n, 199n],
    [`SELECT * FROM ${T} WHERE timestamp > 100 AND 200 >= timestamp`, 101n, 200n],
    [`SELECT * FROM ${T} WHERE timestamp = 7`, 7n, 7n],
    // DuckDB's parser turns this one into `timestamp >= 10` itself.
    [`SELECT * FROM ${T} WHERE NOT (timestamp < 10)`, 10n, null],
    [`SELECT * FROM ${T} WHERE timestamp BETWEEN 5 AND 9 AND status_code = 500`, 5n, 9n],
    [`SELECT * FROM ${T} o WHERE o.timestamp <= 9 AND (status_code = 1 OR log_id = 'x')`, null, 9n],
    [`SELECT * FROM ${T} WHERE ${T}.timestamp >= 1794614400000`, 1794614400000n, null],
    // The tightest of several.
    [
      `SELECT * FROM ${T} WHERE timestamp >= 1 AND timestamp >= 50 AND timestamp < 90 AND timestamp < 80`,
      50n,
      79n,
    ],
    // The SELECT that reads the table may sit anywhere.
    [`WITH w AS (SELECT * FROM ${T} WHERE timestamp < 10) SELECT count(*) FROM w`, null, 9n],
    [`SELECT count(*) FROM (SELECT request_url FROM ${T} WHERE timestamp >= 3) GROUP BY ALL`, 3n, null],
  ])('%s', async (sql, min, max) => {
    expect(await bounds(sql)).toEqual({ min, max });
  });

  it.each([
    // No conjunction, or nothing about the column alone.
    `SELECT * FROM ${T}`,
    `SELECT * FROM ${T} WHERE timestamp < 10 OR status_code = 500`,
    `SELECT * FROM ${T} WHERE timestamp + 1 < 10`,
    `SELECT * FROM ${T} WHERE timestamp < 10.5`,
    `SELECT * FROM ${T} WHERE timestamp < '10'`,
    `SELECT * FROM ${T} WHERE timestamp < NULL`,
    `SELECT * FROM ${T} WHERE timestamp < 9007199254740993`,
    `SELECT * FROM ${T} WHERE timestamp < status_code`,
    // The table read twice: the view serves both reads.
    `SELECT (SELECT count(*) FROM ${T}), count(*) FROM ${T} WHERE timestamp < 10`,
    `SELECT * FROM ${T} WHERE timestamp < 10 AND log_id IN (SELECT log_id FROM ${T})`,
    `SELECT * FROM ${T} a JOIN ${T} b USING (log_id) WHERE a.timestamp < 10`,
    // Read by a join: the WHERE is the join's, not the table's alone.
    `SELECT * FROM ${T} JOIN (SELECT 1 AS timestamp) x ON true WHERE x.timestamp < 10`,
    // Another table's column, renamed columns, a sample (drawn before the WHERE).
    `SELECT * FROM ${T} o WHERE other.timestamp < 10`,
    `SELECT * FROM ${T} AS o(a, b, c, timestamp) WHERE timestamp < 10`,
    `SELECT * FROM ${T} TABLESAMPLE 10 ROWS WHERE timestamp < 10`,
    `SELECT * FROM ${T} WHERE timestamp < 10 USING SAMPLE 10 ROWS`,
    // A table function may read the table again by a name the tree holds only as a string.
    `SELECT (SELECT count(*) FROM ${T} WHERE timestamp > 7), (SELECT count(*) FROM query_table('${T}'))`,
    `SELECT (SELECT count(*) FROM ${T} WHERE timestamp > 7), (SELECT count(*) FROM query('SELECT * FROM ${T}'))`,
    `SELECT * FROM ${T} WHERE timestamp > 7 AND log_id IN (SELECT * FROM range(3))`,
  ])('says nothing: %s', async (sql) => {
    expect(await bounds(sql)).toBeNull();
  });
});

describe('mayHoldRows', () => {
  const r = { min: 100n, max: 200n };
  it.each<[string, { min: bigint; max: bigint } | undefined, TimestampBounds | null, boolean]>([
    ['no bounds', r, null, true],
    ['no range recorded', undefined, { min: 0n, max: 1n }, true],
    ['inside', r, { min: 150n, max: 160n }, true],
    ['touching below', r, { min: 0n, max: 100n }, true],
    ['touching above', r, { min: 200n, max: null }, true],
    ['before', r, { min: null, max: 99n }, false],
    ['after', r, { min: 201n, max: null }, false],
  ])('%s', (_name, range, b, expected) => {
    expect(mayHoldRows(range, b)).toBe(expected);
  });
});

describe('guardsMayHelp', () => {
  const helps = async (sql: string) => {
    const tree = await serializeSql(sql);
    if (tree.error) throw new Error(tree.error_message);
    return guardsMayHelp(tree.statements, timestampBounds(tree.statements, T));
  };
  it.each<[string, boolean]>([
    // Neither column named: a guard is a filter on every row for nothing.
    [`SELECT log_date, status_code, count(*) FROM ${T} GROUP BY ALL`, false],
    [`SELECT * FROM ${T} WHERE pull_zone_id = 7`, false],
    // `timestamp` only where its bounds say all there is to say: the view holds the days in them only.
    [`SELECT count(*) FROM ${T} WHERE timestamp >= 5 AND timestamp < 9 AND status_code >= 500`, false],
    // `timestamp` that the bounds do not hold, and `time` anywhere.
    [`SELECT count(*) FROM ${T} WHERE timestamp < 10 OR status_code = 500`, true],
    [`SELECT count(*) FROM ${T} WHERE timestamp >= 5 AND "time" < '2026-11-20'`, true],
    [`SELECT count(*) FROM ${T} o WHERE o."TIME" < '2026-11-20'`, true],
    [`SELECT count(*) FROM (SELECT * FROM ${T}) WHERE time < '2026-11-20'`, true],
    // What the tree cannot tell: COLUMNS(…), positions, SQL held in a string.
    [`SELECT count(*) FROM ${T} WHERE COLUMNS('^ti') < '2026-11-20'`, true],
    [`SELECT #1 FROM ${T} ORDER BY #1`, true],
    [`SELECT count(*) FROM query('SELECT * FROM ${T} WHERE time > now()')`, true],
  ])('%s: %s', async (sql, expected) => {
    expect(await helps(sql)).toBe(expected);
  });
});

describe('dayBounds', () => {
  async function days(sql: string) {
    const tree = await serializeSql(sql);
    if (tree.error) throw new Error(tree.error_message);
    return dayBounds(tree.statements, 'origin_error_logs');
  }

  it.each<[string, string | null, string | null]>([
    [`SELECT count(*) FROM ${T} WHERE log_date = '2026-11-20'`, '2026-11-20', '2026-11-20'],
    [
      `SELECT * FROM ${T} WHERE log_date >= '2026-11-01' AND log_date < '2026-11-08'`,
      '2026-11-01',
      '2026-11-08',
    ],
    // Strict bounds stay inclusive: the store reads a day more, never one less.
    [`SELECT * FROM ${T} WHERE '2026-11-20' < log_date`, '2026-11-20', null],
    [
      `SELECT * FROM ${T} o WHERE o.log_date BETWEEN '2026-11-01' AND '2026-11-02' AND status_code = 500`,
      '2026-11-01',
      '2026-11-02',
    ],
  ])('%s: %s..%s', async (sql, min, max) => {
    expect(await days(sql)).toEqual({ min, max });
  });

  it.each([
    `SELECT * FROM ${T} WHERE log_date = 'yesterday'`,
    `SELECT * FROM ${T} WHERE log_date >= '2026-11-1'`,
    `SELECT * FROM ${T} WHERE log_date = '2026-11-20' OR status_code = 500`,
    `SELECT * FROM ${T} WHERE log_date = CAST('2026-11-20' AS DATE)`,
    `SELECT * FROM ${T} a JOIN ${T} b ON a.log_id = b.log_id WHERE a.log_date = '2026-11-20'`,
    `SELECT count(*) FROM query_table('${T}') WHERE log_date = '2026-11-20'`,
  ])('%s: none', async (sql) => {
    expect(await days(sql)).toBeNull();
  });
});

describe('mayHoldDay', () => {
  const D = '2026-11-17';
  it.each<[string, DayBounds | null, boolean]>([
    ['no bounds', null, true],
    ['that day', { min: D, max: D }, true],
    ['from it', { min: D, max: null }, true],
    ['up to it', { min: null, max: D }, true],
    ['later days', { min: '2026-11-18', max: null }, false],
    ['earlier days', { min: null, max: '2026-11-16' }, false],
    ['another month', { min: '2026-10-01', max: '2026-10-31' }, false],
  ])('%s', (_name, b, expected) => {
    expect(mayHoldDay(D, b)).toBe(expected);
  });
});

describe('timeOrder', () => {
  const order = async (sql: string) => {
    const tree = await serializeSql(sql);
    if (tree.error) throw new Error(tree.error_message);
    return timeOrder(tree.statements, T);
  };
  it.each<[string, 'newest' | 'oldest' | null]>([
    // The explorer's page and its live tail.
    [`SELECT * FROM ${T} WHERE timestamp < 9 ORDER BY timestamp DESC, log_id DESC LIMIT 101`, 'newest'],
    [`SELECT * FROM ${T} WHERE timestamp > 9 ORDER BY timestamp ASC, log_id ASC LIMIT 101`, 'oldest'],
    [`SELECT * FROM ${T} o ORDER BY o."TIME" DESC LIMIT 5`, 'newest'],
    [`SELECT * FROM ${T} ORDER BY ${T}.timestamp`, 'oldest'],
    [`SELECT count(*) FROM (SELECT * FROM ${T} ORDER BY time DESC LIMIT 3)`, 'newest'],
    // Sorted by something else first, or not sorted where the table is read.
    [`SELECT * FROM ${T} ORDER BY log_id, timestamp DESC`, null],
    [`SELECT * FROM ${T} ORDER BY timestamp + 1 DESC`, null],
    [`SELECT * FROM ${T} o ORDER BY other.timestamp DESC`, null],
    [`SELECT * FROM (SELECT * FROM ${T}) ORDER BY timestamp DESC`, null],
    [`SELECT * FROM ${T}`, null],
    // The table read twice, or by name in a string.
    [`SELECT * FROM ${T} WHERE log_id IN (SELECT log_id FROM ${T}) ORDER BY timestamp DESC`, null],
    [`SELECT *, (SELECT count(*) FROM query_table('${T}')) FROM ${T} ORDER BY timestamp DESC`, null],
  ])('%s: %s', async (sql, expected) => {
    expect(await order(sql)).toBe(expected);
  });
});
