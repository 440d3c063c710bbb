// Which engine answers when `edgelog query` is not told: the pure rule over DuckDB's parse tree.
import { describe, expect, it } from 'vitest';
import { engineFor } from '../../src/history/engine-choice.js';
import type { SerializedSql } from '../../src/history/statement-tables.js';

const select = (...tables: string[]): SerializedSql => ({
  error: false,
  statements: [{ node: { from_table: tables.map((table_name) => ({ type: 'BASE_TABLE', table_name })) } }],
});

describe('engineFor', () => {
  it.each([
    [
      'a SELECT over an entry table with files',
      select('origin_error_logs'),
      ['origin_error_logs'],
      'history',
    ],
    [
      'a join of an entry table with files and one without',
      select('origin_error_logs', 'shield_event_logs'),
      ['shield_event_logs'],
      'history',
    ],
    [
      'a SELECT over an entry table without files',
      select('origin_error_logs'),
      ['shield_event_logs'],
      'store',
    ],
    ['the ledger', select('ingest_ledger'), ['origin_error_logs'], 'store'],
    ['no table', select(), ['origin_error_logs'], 'store'],
    [
      'what DuckDB does not serialize (not a SELECT)',
      { error: true, error_message: 'Only SELECT statements' },
      ['origin_error_logs'],
      'store',
    ],
    ['two statements', { error: false, statements: [{}, {}] }, ['origin_error_logs'], 'store'],
  ] as const)('%s: %s', (_what, tree, withFiles, engine) => {
    expect(engineFor(tree as SerializedSql, withFiles)).toBe(engine);
  });
});
