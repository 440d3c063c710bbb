import { describe, expect, it } from 'vitest';
import { csvEncoder, jsonEncoder, ndjsonEncoder } from '../../src/query/row-encoders.js';
import { footer, queryTable } from '../../src/query/table-output.js';
import { blobHex, csvField, jsonValue, uniqueNames, type SqlValue } from '../../src/query/values.js';

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

describe('queryTable', () => {
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
      ['zone  url           n', ' 101  https://a/x   3', '   7               12', '(2 rows)', ''].join('\n'),
    );
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
