// A sql rule's rows as alerts: labels, value, the key of each alert's state.
import { describe, expect, it } from 'vitest';
import { describeLabels } from '../../src/alerts/sql-evaluator.js';
import { seriesFingerprint, seriesKey, sqlRows, zoneOf } from '../../src/alerts/sql-rows.js';

describe('sqlRows', () => {
  it('makes each row an alert: columns as text labels, `value` as its number, keyed by sorted labels', () => {
    const r = sqlRows(
      ['zone', 'country', 'value'],
      [
        [101n, 'FR', 12n],
        [102n, null, 2.5],
        [103n, new Uint8Array([1, 255]), '7'],
      ],
    );
    expect(r.problems).toEqual([]);
    expect(r.series).toEqual([
      { series: '{"country":"FR","zone":"101"}', labels: { zone: '101', country: 'FR' }, value: 12 },
      { series: '{"country":"","zone":"102"}', labels: { zone: '102', country: '' }, value: 2.5 },
      {
        series: '{"country":"\\\\x01ff","zone":"103"}',
        labels: { zone: '103', country: '\\x01ff' },
        value: 7,
      },
    ]);
  });

  it('keeps a column named __proto__ or constructor as a label like another', () => {
    const r = sqlRows(
      ['__proto__', 'constructor'],
      [
        ['x', 'c'],
        ['y', 'c'],
      ],
    );
    expect(r.problems).toEqual([]);
    expect(r.series.map((s) => s.series)).toEqual([
      '{"__proto__":"x","constructor":"c"}',
      '{"__proto__":"y","constructor":"c"}',
    ]);
    expect(Object.keys(r.series[0]!.labels)).toEqual(['__proto__', 'constructor']);
  });

  it('keeps the first of two rows with the same labels and of two columns with the same name, saying so', () => {
    const r = sqlRows(
      ['a', 'a', 'value'],
      [
        ['x', 'y', 'many'],
        ['x', 'z', 2n],
      ],
    );
    expect(r.series).toEqual([{ series: '{"a":"x"}', labels: { a: 'x' }, value: null }]);
    expect(r.problems).toEqual([
      'column "a" appears twice: the first is used',
      'the value of {"a":"x"} is not a number',
      'two rows with the same labels {"a":"x"}: the first is used',
    ]);
  });

  it('has no value without a `value` column', () => {
    expect(sqlRows(['x'], [['1']]).series).toEqual([
      { series: '{"x":"1"}', labels: { x: '1' }, value: null },
    ]);
  });
});

describe('keys and names', () => {
  it('the same labels in any order are one alert; another rule or other labels are another', () => {
    expect(seriesKey({ b: '2', a: '1' })).toBe(seriesKey({ a: '1', b: '2' }));
    const k = seriesKey({ a: '1' });
    expect(seriesFingerprint('r', k)).toBe(seriesFingerprint('r', k));
    expect(seriesFingerprint('r', k)).not.toBe(seriesFingerprint('s', k));
    expect(seriesFingerprint('r', k)).not.toBe(seriesFingerprint('r', seriesKey({ a: '2' })));
  });

  it('takes a zone from a `zone` label holding a zone id only', () => {
    expect(zoneOf({ zone: '101' })).toBe(101);
    expect(zoneOf({ zone: '0' })).toBe(0);
    expect(zoneOf({ zone: '1e3' })).toBe(0);
    expect(zoneOf({ zone: '99999999999999999999' })).toBe(0);
    expect(zoneOf({})).toBe(0);
  });

  it('names labels escaped for a terminal, quoting what is not a plain word', () => {
    expect(describeLabels({ zone: '101', path: '/a/b', ua: 'x y\u001b[2J' })).toBe(
      'zone=101, path=/a/b, ua="x y\\x1b[2J"',
    );
  });
});
