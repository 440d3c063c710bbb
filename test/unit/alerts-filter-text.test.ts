// `alerts list` shows a spike rule's filter in words, not as the configuration's JSON.
import { describe, expect, it } from 'vitest';
import { filterText } from '../../src/alerts/filter-text.js';
import type { SpikeFilter } from '../../src/store/store.js';

describe('filterText', () => {
  it.each<[SpikeFilter, string]>([
    [{}, 'every entry'],
    [{ statusCodeMin: 500 }, 'status ≥ 500'],
    [{ statusCodeMax: 499 }, 'status ≤ 499'],
    [{ statusCodeMin: 500, statusCodeMax: 599 }, 'status 500-599'],
    [{ statusCodeMin: 503, statusCodeMax: 503 }, 'status 503'],
    [{ statusCodeMin: 500, errorCode: 'http_timeout' }, 'status ≥ 500, error_code=http_timeout'],
    [
      { severity: 'critical', ruleId: '942100', status: 'blocked' },
      'severity=critical, rule_id=942100, status=blocked',
    ],
    [{ errorCode: 'two words' }, 'error_code="two words"'],
    [{ errorCode: '' }, 'error_code=""'],
  ])('%j', (filter, text) => {
    expect(filterText(filter)).toBe(text);
  });
});
