// The prompt's pure parts by table: where statements end, which lines are listing commands, and what
// Tab completes.
import { describe, expect, it } from 'vitest';
import { complete } from '../../src/query/prompt-completion.js';
import { promptCommand, splitStatements } from '../../src/query/prompt-input.js';

describe('splitStatements', () => {
  it.each([
    ['SELECT 1;\n', ['SELECT 1'], ''],
    ['SELECT 1\n', [], 'SELECT 1\n'],
    ['SELECT 1; SELECT 2;\n', ['SELECT 1', 'SELECT 2'], ''],
    ["SELECT ';' AS s;\n", ["SELECT ';' AS s"], ''],
    ["SELECT 'it''s';\n", ["SELECT 'it''s'"], ''],
    ["SELECT 'open;\n", [], "SELECT 'open;\n"],
    ['SELECT "a;b" FROM t;\n', ['SELECT "a;b" FROM t'], ''],
    ['SELECT 1 -- not; the end\n;\n', ['SELECT 1 -- not; the end'], ''],
    ['SELECT /* ; */ 1;\n', ['SELECT /* ; */ 1'], ''],
    [';;\n', [], ''],
    ['SELECT 1; SELECT\n', ['SELECT 1'], 'SELECT\n'],
  ])('%j', (text, statements, rest) => {
    expect(splitStatements(text)).toEqual({ statements, rest });
  });
});

describe('promptCommand', () => {
  it.each([
    ['.tables', { kind: 'tables' }],
    ['\\dt', { kind: 'tables' }],
    ['\\d', { kind: 'tables' }],
    ['\\d origin_error_logs', { kind: 'describe', name: 'origin_error_logs' }],
    ['.schema ingest_ledger;', { kind: 'describe', name: 'ingest_ledger' }],
    ['\\q', { kind: 'quit' }],
    ['.exit', { kind: 'quit' }],
    ['.help', { kind: 'help' }],
    ['.mode csv', { kind: 'unknown', text: '.mode csv' }],
    ['SELECT 1;', null],
  ])('%j', (line, command) => {
    expect(promptCommand(line)).toEqual(command);
  });
});

describe('complete', () => {
  const names = {
    tables: ['origin_error_logs', 'origin_hourly', 'ingest_ledger'],
    columns: ['log_date', 'log_id', 'origin_zone'],
  };
  it.each([
    ['SELECT log_', [['log_date', 'log_id'], 'log_']],
    ['SELECT * FROM orig', [['origin_error_logs', 'origin_hourly', 'origin_zone'], 'orig']],
    ['SELECT orig', [['origin_zone', 'origin_error_logs', 'origin_hourly'], 'orig']],
    ['\\d ing', [['ingest_ledger'], 'ing']],
    ['\\d ', [['origin_error_logs', 'origin_hourly', 'ingest_ledger'], '']],
    ['sel', [['select'], 'sel']],
    ['SELECT ', [[], '']],
  ])('%j', (line, expected) => {
    expect(complete(line, names)).toEqual(expected);
  });
});
