import { describe, expect, it } from 'vitest';
import { formatBytes, progressText } from '../../src/format/bytes.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [123456789, '117.7 MiB'],
    [5 * 2 ** 30, '5.0 GiB'],
    [3 * 2 ** 50, '3072.0 TiB'],
  ])('%d → %s', (n, expected) => expect(formatBytes(n)).toBe(expected));
});

describe('progressText', () => {
  it.each([
    [0, 2048, '0% (0 B of 2.0 KiB)'],
    [1024, 2048, '50% (1.0 KiB of 2.0 KiB)'],
    [2047, 2048, '99% (2.0 KiB of 2.0 KiB)'],
    [0, 0, '100% (0 B of 0 B)'],
  ])('%d of %d → %s', (done, total, expected) => expect(progressText(done, total)).toBe(expected));
});
