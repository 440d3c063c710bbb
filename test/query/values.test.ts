import { describe, expect, it } from 'vitest';
import { csvEncoder, jsonEncoder, ndjsonEncoder } from '../../src/format/row-encoders.js';
import { footer, queryTable } from '../../src/query/table-output.js';
import { RAW_CONTROL } from '../support/terminal.js';
import { blobHex, csvField, jsonValue, uniqueNames, type SqlValue } from '../../src/format/values.js';

const blob = new Uint8Array([0x00, 0xab, 0x10, 0xff]);

describe('csvField (RFC 4180)', () => {
  it.each<[string, SqlValue, string]>([
    ['plain text', 'abc', 'abc'],
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['only a quote', '"', '""""'],
    ['a newline', 'line1\nline2', '"line1\nline2"'],
    ['a carriage return', 'a\rb', '"a\rb"'],
    ['CRLF', 'a\r\nb', '"a\r\nb"'],
    ['NULL', null, ''],
    ['the empty string', '', '""'],
    ['spaces kept as they are', '  x ', '  x '],
    ['an integer', 42n, '42'],
    ['a negative integer', -7n, '-7'],
    ['an integer beyond 2^53', 9007199254740993n, '9007199254740993'],
    ['the largest INTEGER', 9223372036854775807n, '9223372036854775807'],
    ['a REAL', 1.5, '1.5'],
    ['a tiny REAL', 1e-7, '1e-7'],
    ['a BLOB', blob, '00AB10FF'],
    ['an empty BLOB', new Uint8Array(0), '""'],
    ['unicode', 'Zürich ✓', 'Zürich ✓'],
  ])('%s', (_name, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe('jsonValue', () => {
  it.each<[string, SqlValue, string]>([
    ['NULL', null, 'null'],
    ['text', 'a"b\\c\n', '"a\\"b\\\\c\\n"'],
    ['an integer', 42n, '42'],
    ['an integer beyond 2^53 keeps every digit', 9007199254740993n, '9007199254740993'],
    ['the smallest INTEGER', -9223372036854775808n, '-9223372036854775808'],
    ['a REAL', 0.1, '0.1'],
    ['a large REAL', 1e300, '1e+300'],
    ['Infinity (JSON has none)', Infinity, 'null'],
    ['a BLOB as hex text', blob, '"00AB10FF"'],
    ['control characters', '\u0001', '"\\u0001"'],
  ])('%s', (_name, value, expected) => {
    expect(jsonValue(value)).toBe(expected);
    // Whatever it writes is valid JSON.
    expect(() => JSON.parse(expected) as unknown).not.toThrow();
  });
});

describe('blobHex', () => {
  it('reads only the view of a larger buffer', () => {
    const backing = new Uint8Array([1, 2, 3, 4, 5]);
    expect(blobHex(backing.subarray(1, 3))).toBe('0203');
  });
});

describe('uniqueNames', () => {
  it.each([
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [
      ['id', 'id'],
      ['id', 'id_2'],
    ],
    [
      ['id', 'id', 'id'],
      ['id', 'id_2', 'id_3'],
    ],
    [
      ['id', 'id_2', 'id'],
      ['id', 'id_2', 'id_3'],
    ],
    [
      ['', ''],
      ['', '_2'],
    ],
  ])('%j → %j', (names, expected) => {
    expect(uniqueNames(names)).toEqual(expected);
  });
});

const columns = ['id', 'name', 'n'];
const rows: SqlValue[][] = [
  [1n, 'a, "b"', 1.5],
  [2n, 'multi\nline', null],
  [9007199254740993n, '', blob],
];

function encode(encoder: ReturnType<typeof jsonEncoder>, list: SqlValue[][]): string {
  return encoder.start() + list.map((r, i) => encoder.row(r, i)).join('') + encoder.end(list.length);
}

describe('row encoders', () => {
  it('json: one array of objects, one object a line', () => {
    const text = encode(jsonEncoder(columns), rows);
    expect(text).toBe(
      '[\n{"id":1,"name":"a, \\"b\\"","n":1.5},\n{"id":2,"name":"multi\\nline","n":null},\n' +
        '{"id":9007199254740993,"name":"","n":"00AB10FF"}\n]\n',
    );
    expect(JSON.parse(text)).toHaveLength(3);
  });

  it('json: an empty result is []', () => {
    expect(encode(jsonEncoder(columns), [])).toBe('[]\n');
    expect(JSON.parse(encode(jsonEncoder(columns), []))).toEqual([]);
  });

  it('json: repeated column names are kept apart', () => {
    expect(encode(jsonEncoder(['id', 'id']), [[1n, 2n]])).toBe('[\n{"id":1,"id_2":2}\n]\n');
  });

  it('ndjson: one object per line, nothing else', () => {
    const text = encode(ndjsonEncoder(columns), rows);
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(JSON.parse(lines[1]!)).toEqual({ id: 2, name: 'multi\nline', n: null });
    expect(encode(ndjsonEncoder(columns), [])).toBe('');
  });

  it('csv: header row, quoted fields, CRLF', () => {
    expect(encode(csvEncoder(['id', 'a,b']), rows)).toBe(
      'id,"a,b"\r\n1,"a, ""b""",1.5\r\n2,"multi\nline",\r\n9007199254740993,"",00AB10FF\r\n',
    );
    expect(encode(csvEncoder(columns), [])).toBe('id,name,n\r\n');
  });
});

describe('csv: formula injection (OWASP CSV injection)', () => {
  const cells: SqlValue[][] = [
    ['=HYPERLINK("http://evil","x")', "+1+cmd|' /C calc'!A0", '-2+3', '@SUM(A1)'],
    ['\tdata', '\rdata', 'plain', 'a=b'],
    [-5, -1.5, 7n, null],
  ];

  it('a text cell starting with = + - @ tab or CR is neutralised with a leading quote; numbers are not', () => {
    expect(encode(csvEncoder(['=a', 'b', 'c', 'd']), cells)).toBe(
      [
        `'=a,b,c,d`,
        `"'=HYPERLINK(""http://evil"",""x"")",'+1+cmd|' /C calc'!A0,'-2+3,'@SUM(A1)`,
        `'\tdata,"'\rdata",plain,a=b`,
        '-5,-1.5,7,',
        '',
      ].join('\r\n'),
    );
  });

  it('raw: every cell exactly as stored', () => {
    expect(encode(csvEncoder(['=a', 'b', 'c', 'd'], { csvRaw: true }), cells)).toBe(
      [
        '=a,b,c,d',
        `"=HYPERLINK(""http://evil"",""x"")",+1+cmd|' /C calc'!A0,-2+3,@SUM(A1)`,
        '\tdata,"\rdata",plain,a=b',
        '-5,-1.5,7,',
        '',
      ].join('\r\n'),
    );
  });

  it('on a terminal, control characters are escaped; raw or not', () => {
    const hostile: SqlValue[][] = [['\x1b]0;title\x07x', 'a\u202eb\u009b']];
    for (const csvRaw of [false, true]) {
      const text = encode(csvEncoder(['t', 'u'], { csvRaw, terminal: true }), hostile);
      expect(text).toBe('t,u\r\n\\x1b]0;title\\x07x,a\\u202eb\\x9b\r\n');
    }
  });
});

describe('json and ndjson: nothing a terminal acts on, the same values', () => {
  it('escapes DEL, C1 and bidirectional characters as \\u escapes', () => {
    const hostile: SqlValue[][] = [['\x1b[2J\u009b31m\u202e\u007f']];
    for (const encoder of [jsonEncoder, ndjsonEncoder]) {
      const text = encode(encoder(['k\u202e']), hostile);
      expect(text).not.toMatch(RAW_CONTROL);
      expect(text).toContain('"k\\u202e":"\\u001b[2J\\u009b31m\\u202e\\u007f"');
    }
  });
});

describe('queryTable', () => {
  it('fits the terminal width by cutting the widest text columns; wide leaves every cell whole', () => {
    const rows = [[1n, 'u'.repeat(90), 'm'.repeat(90)]];
    const fitted = queryTable(['id', 'url', 'message'], rows, false, { width: 80 });
    for (const line of fitted.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(fitted.split('\n')[1]).toMatch(/^ 1 {2}u+… {2}m+…$/);
    const wide = queryTable(['id', 'url', 'message'], [[1n, 'u'.repeat(150), 'm'.repeat(90)]], false, {
      width: 80,
      wide: true,
    });
    expect(wide.split('\n')[1]).toBe(` 1  ${'u'.repeat(150)}  ${'m'.repeat(90)}`);
  });

  it('aligns columns, right-aligns numbers, and counts rows', () => {
    const text = queryTable(
      ['zone', 'url', 'n'],
      [
        [101n, 'https://a/x', 3n],
        [7n, null, 12n],
      ],
      false,
    );
    expect(text).toBe(
      ['zone  url           n', ' 101  https://a/x   3', '   7  NULL         12', '(2 rows)', ''].join('\n'),
    );
  });

  it('shows NULL as NULL, apart from the empty text', () => {
    const text = queryTable(['a', 'b', 'n'], [[null, '', null]], false);
    expect(text).toBe('a     b  n\nNULL     NULL\n(1 row)\n');
  });

  it('fits the terminal by cutting free text, never an ISO time or day in the middle', () => {
    const time = '2026-11-27T00:01:22.284Z';
    const rows = [[101n, `https://pz-101.b-cdn.net/${'x'.repeat(80)}`, 'm'.repeat(60), '2026-11-27', time]];
    const fitted = queryTable(['zone', 'url', 'message', 'log_date', 'time'], rows, false, { width: 72 });
    const line = fitted.split('\n')[1]!;
    expect(line).toMatch(/^ 101 {2}https:\S+… {2}m+… {2}2026-11-27 {2}2026-11-27T00:01:22\.284Z$/);
    expect(line.length).toBeLessThanOrEqual(72);
  });

  it('shows BLOBs by size and newlines as spaces', () => {
    expect(queryTable(['b', 't'], [[blob, 'a\nb']], false)).toBe('b          t\n<4 bytes>  a b\n(1 row)\n');
  });

  it('cuts cells beyond 100 characters with an ellipsis', () => {
    const line = queryTable(['t'], [['x'.repeat(150)]], false).split('\n')[1]!;
    expect(line).toBe(`${'x'.repeat(99)}…`);
  });

  it('an empty result still shows the header', () => {
    expect(queryTable(['a'], [], false)).toBe('a\n(0 rows)\n');
  });

  it.each([
    [0, false, '(0 rows)'],
    [1, false, '(1 row)'],
    [1000, false, '(1,000 rows)'],
    [
      1,
      true,
      '(the first 1 row shown; there are more: raise --limit, or use --format csv|ndjson|json for all)',
    ],
    [
      1000,
      true,
      '(the first 1,000 rows shown; there are more: raise --limit, or use --format csv|ndjson|json for all)',
    ],
  ])('footer(%i, %s)', (shown, more, expected) => {
    expect(footer(shown, more)).toBe(expected);
  });
});
