// The demo's sample alert line: the comparison sign follows the figures (an inactive rule at 00:30 UTC
// read "inactive (11 errors ≥ threshold 33)").
import { describe, expect, it } from 'vitest';
import { sampleAlertLine } from '../../src/commands/demo-alert-line.js';

const line = (alert: Parameters<typeof sampleAlertLine>[2]) =>
  sampleAlertLine('origin-5xx-spike', 101, alert);

describe('sampleAlertLine', () => {
  it.each([
    [{ state: 'firing', last_value: 273, last_threshold: 240 }, 'firing (273 errors ≥ threshold 240)'],
    [{ state: 'firing', last_value: 240, last_threshold: 240 }, 'firing (240 errors ≥ threshold 240)'],
    [{ state: 'inactive', last_value: 11, last_threshold: 33 }, 'inactive (11 errors < threshold 33)'],
    [{ state: 'inactive', last_value: 5, last_threshold: null }, 'inactive (5 errors)'],
    [{ state: 'inactive', last_value: null, last_threshold: null }, 'inactive'],
    [undefined, 'not evaluated'],
  ] as const)('%o → %s', (alert, shown) => {
    expect(line(alert)).toBe(`Sample alert rule origin-5xx-spike on zone 101: ${shown}`);
  });
});
