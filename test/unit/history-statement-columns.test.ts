// Which columns of an archive table a statement reads (statement-columns.ts), from DuckDB's own parse
// tree: only names count; anything that reads a column without naming it means every column.
import { describe, expect, it } from 'vitest';
import { columnsToCopy, namedColumns } from '../../src/history/statement-columns.js';
import { serializeSql } from '../../src/history/statement-tables.js';
import { storeRowsSql } from '../../src/history/store-rows-sql.js';

async function copied(sql: string, table: 'shield_event_logs' | 'origin_error_logs' = 'shield_event_logs') {
  const tree = await serializeSql(sql);
  if (tree.error) throw new Error(tree.error_message);
  const cols = columnsToCopy(table, namedColumns(tree.statements));
  return cols === null ? null : [...cols].sort();
}

describe('the columns a statement reads', () => {
  it.each([
    ['SELECT count(*) FROM shield_event_logs', []],
    [
      "SELECT country, count(*) FROM shield_event_logs WHERE status = 'BLOCKED' GROUP BY 1",
      ['country', 'status'],
    ],
    ['SELECT s.Country FROM shield_event_logs s', ['country']],
    ["SELECT count(*) FROM shield_event_logs WHERE time > TIMESTAMP '2026-11-20'", ['timestamp']],
    ['WITH x AS (SELECT log_id FROM shield_event_logs) SELECT count(*) FROM x', ['log_id']],
    [
      'SELECT max(length(log)) FROM shield_event_logs WHERE log_id IN (SELECT log_id FROM origin_error_logs)',
      ['log', 'log_id'],
    ],
  ])('%s: %j', async (sql, want) => {
    expect(await copied(sql)).toEqual(want);
  });

  it.each([
    'SELECT * FROM shield_event_logs',
    'FROM shield_event_logs',
    'SELECT s.* FROM shield_event_logs s',
    "SELECT COLUMNS('c.*') FROM shield_event_logs",
    'SELECT * EXCLUDE (log) FROM shield_event_logs',
    'SELECT country FROM shield_event_logs ORDER BY ALL',
    'SELECT #1 FROM shield_event_logs',
    'SELECT count(*) FROM shield_event_logs NATURAL JOIN origin_error_logs',
    'SELECT count(*) FROM shield_event_logs JOIN origin_error_logs USING (log_id)',
    "SELECT count(*) FROM query_table('shield_event_logs')",
    'SELECT s FROM shield_event_logs s',
    'SELECT list_transform([1], x -> x + 1) FROM shield_event_logs',
    'SELECT count(*) AS n FROM shield_event_logs ORDER BY n',
  ])('%s: every column', async (sql) => {
    expect(await copied(sql)).toBeNull();
  });

  it('the store is asked for those columns only; for none, how many rows', () => {
    const some = storeRowsSql(
      'origin_error_logs',
      [],
      {},
      null,
      5n,
      'sqlite',
      new Set(['status_code', 'log_id']),
    );
    expect(some).toMatch(
      /^SELECT log_id, status_code FROM origin_error_logs INDEXED BY origin_error_logs_batch WHERE batch >= 5$/,
    );
    const none = storeRowsSql('origin_error_logs', [], {}, null, 5n, 'sqlite', new Set());
    expect(none).toMatch(/^SELECT count\(\*\) FROM origin_error_logs /);
    expect(storeRowsSql('origin_error_logs', [], {}, null, 5n, 'sqlite')).toContain('SELECT pull_zone_id, ');
  });
});
