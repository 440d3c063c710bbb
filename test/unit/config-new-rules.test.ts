// The new-term and sql rules' keys, refused where they contradict each other, with a message naming them.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';

const rule = (r: Record<string, unknown>) => () => parseConfig({ alerts: { rules: [r as never] } });
const newTerm = { name: 'n', type: 'new-term', source: 'shield', field: 'country', window: '1h' };

describe('new-term rules', () => {
  it('take their defaults: lookback 14d, min 1, no depth', () => {
    const [r] = parseConfig({ alerts: { rules: [newTerm as never] } }).alerts.rules;
    expect(r).toMatchObject({ type: 'new-term', lookback: 14 * 86_400_000, min: 1, window: 3_600_000 });
    expect(r).not.toHaveProperty('depth');
  });

  it('refuse a field of the other source, naming the fields the source has', () => {
    expect(rule({ ...newTerm, field: 'error_code' })).toThrow(
      /"error_code" is not a shield field; shield has country, asn, rule_id, severity, method, path/,
    );
    expect(rule({ ...newTerm, source: 'origin', field: 'asn' })).toThrow(
      /origin has error_code, status_code, path/,
    );
  });

  it('take a depth of 1 to 3 with a path only', () => {
    expect(rule({ ...newTerm, field: 'path', depth: 3 })).not.toThrow();
    expect(rule({ ...newTerm, field: 'path', depth: 4 })).toThrow(/depth/);
    expect(rule({ ...newTerm, depth: 2 })).toThrow(/only a "path" field takes a depth/);
  });

  it('refuse a lookback that is not whole hours', () => {
    expect(rule({ ...newTerm, lookback: '90m' })).toThrow(/whole number of hours/);
  });
});

describe('sql rules', () => {
  it('take their defaults and no zones', () => {
    const [r] = parseConfig({ alerts: { rules: [{ name: 's', type: 'sql', sql: 'SELECT 1' } as never] } })
      .alerts.rules;
    expect(r).toMatchObject({ type: 'sql', timeout: 10_000, maxRows: 500, for: 0, hooks: [] });
    expect(rule({ name: 's', type: 'sql', sql: 'SELECT 1', zones: [1] })).toThrow(/zones/);
  });

  it('refuse an empty statement', () => {
    expect(rule({ name: 's', type: 'sql', sql: '  ' })).toThrow(/expected a SELECT statement/);
  });
});
