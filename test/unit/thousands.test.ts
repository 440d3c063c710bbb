import { describe, expect, it } from 'vitest';
import { thousands } from '../../src/format/table.js';

describe('thousands', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
    [-1234, '-1,234'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
    [1234.5, '1,234.5'],
  ])('%d → %s', (n, expected) => {
    expect(thousands(n)).toBe(expected);
    expect(thousands(n)).toBe(n.toLocaleString('en-US'));
  });
});
