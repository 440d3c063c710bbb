// Tables for a person's terminal: hostile cells are escaped, cut after escaping, aligned by columns,
// and the whole table fits a width when asked.
import { describe, expect, it } from 'vitest';
import { formatTable, type Column } from '../../src/format/table.js';
import { textWidth } from '../../src/format/terminal-text.js';
import { RAW_CONTROL } from '../support/terminal.js';

type Row = { name: string; n: number };
const columns: Array<Column<Row>> = [
  { header: 'name', value: (r) => r.name },
  { header: 'n', value: (r) => r.n, right: true },
];

describe('formatTable', () => {
  it('escapes control, C1 and bidirectional characters in cells and headers', () => {
    const table = formatTable(
      [{ header: 'h\x1b[1m', value: (r: Row) => r.name }, columns[1]!],
      [
        { name: '\x1b]0;owned\x07title', n: 1 },
        { name: 'a\u009b2Jb', n: 2 },
        { name: 'evil\u202etxt.exe', n: 3 },
      ],
    );
    expect(table).not.toMatch(RAW_CONTROL);
    const row = (name: string, n: string) => `${name.padEnd(21)}  ${n}`;
    expect(table.split('\n')).toEqual([
      row('h\\x1b[1m', 'n'),
      row('\\x1b]0;owned\\x07title', '1'),
      row('a\\x9b2Jb', '2'),
      row('evil\\u202etxt.exe', '3'),
    ]);
  });

  it('cuts a cell after escaping it, never inside an escape', () => {
    const table = formatTable(columns, [{ name: `ab${'\x1b'.repeat(30)}`, n: 1 }], 12);
    expect(table.split('\n')[1]).toBe('ab\\x1b\\x1b…  1');
  });

  it('aligns wide characters by the columns they take', () => {
    const table = formatTable(columns, [
      { name: '東京', n: 1 },
      { name: 'abcde', n: 22 },
    ]);
    expect(table.split('\n')).toEqual(['name    n', '東京    1', 'abcde  22']);
  });

  it('fits a total width by cutting the widest text columns, numbers whole', () => {
    const rows = [{ name: 'x'.repeat(50), n: 123456 }];
    const wide = formatTable([{ header: 'other', value: () => 'y'.repeat(30) }, ...columns], rows, {
      maxCell: 100,
      maxWidth: 60,
    });
    for (const line of wide.split('\n')) expect(textWidth(line)).toBeLessThanOrEqual(60);
    expect(wide).toContain('123456');
    expect(wide.split('\n')[1]).toMatch(/^y+… {2}x+… {2}123456$/);
    // Without a width, every cell is whole (up to maxCell).
    const whole = formatTable(columns, rows, { maxCell: 100 });
    expect(whole.split('\n')[1]).toBe(`${'x'.repeat(50)}  123456`);
  });

  it('cuts only the flexible columns when some are named', () => {
    const rows = [{ name: 'n'.repeat(30), n: 1 }];
    const table = formatTable(
      [
        { header: 'name', value: (r: Row) => r.name },
        { header: 'error', value: () => 'e'.repeat(40), flexible: true },
      ],
      rows,
      { maxWidth: 50 },
    );
    expect(table.split('\n')[1]).toBe(`${'n'.repeat(30)}  ${'e'.repeat(17)}…`);
  });
});
