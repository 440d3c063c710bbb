import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  alertmanagerPayload,
  fingerprint,
  signature,
  slackPayload,
  type Notice,
} from '../../src/alerts/payload.js';

const notice: Notice = {
  id: 'abc-firing-1',
  rule: 'origin-5xx-spike',
  ruleType: 'spike',
  source: 'origin',
  zone: 101,
  status: 'firing',
  startsAt: Date.parse('2026-11-22T10:00:00Z'),
  endsAt: null,
  severity: 'critical',
  summary: '60 origin errors in 1h',
  details: { count: '60', reference: '5.00' },
  fingerprint: fingerprint('origin-5xx-spike', 'origin', 101),
};

describe('notice payloads', () => {
  it("a sql row's columns go as labels, but never as edgelog's own (severity included, when the rule has none)", () => {
    const row = { alertname: 'x', source: 'x', zone: 'x', rule_type: 'x', severity: 'critical', kind: 'k' };
    const sql: Notice = {
      ...notice,
      rule: 'rows',
      ruleType: 'sql',
      source: 'sql',
      severity: undefined,
      labels: row,
    };
    const labels = (alertmanagerPayload(sql, 'ops').alerts as Array<{ labels: unknown }>)[0]!.labels;
    expect(labels).toEqual({ alertname: 'rows', source: 'sql', zone: '101', rule_type: 'sql', kind: 'k' });
    const paged = alertmanagerPayload({ ...sql, severity: 'page' }, 'ops');
    expect((paged.alerts as Array<{ labels: unknown }>)[0]!.labels).toMatchObject({ severity: 'page' });
  });

  it('fingerprints are stable and distinct per rule × source × zone', () => {
    expect(fingerprint('r', 'origin', 1)).toBe(fingerprint('r', 'origin', 1));
    expect(fingerprint('r', 'origin', 1)).not.toBe(fingerprint('r', 'origin', 2));
    expect(fingerprint('r', 'origin', 1)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('webhooks get Alertmanager webhook v4', () => {
    const p = alertmanagerPayload(notice, 'ops');
    expect(p).toMatchObject({
      version: '4',
      status: 'firing',
      receiver: 'ops',
      groupLabels: { alertname: 'origin-5xx-spike' },
    });
    const alert = (p.alerts as Array<Record<string, unknown>>)[0]!;
    expect(alert).toEqual({
      status: 'firing',
      labels: {
        alertname: 'origin-5xx-spike',
        source: 'origin',
        zone: '101',
        rule_type: 'spike',
        severity: 'critical',
      },
      annotations: { summary: '60 origin errors in 1h', count: '60', reference: '5.00' },
      startsAt: '2026-11-22T10:00:00.000Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: '',
      fingerprint: notice.fingerprint,
    });
    const resolved = alertmanagerPayload(
      { ...notice, status: 'resolved', endsAt: Date.parse('2026-11-22T12:00:00Z') },
      'ops',
    );
    expect((resolved.alerts as Array<Record<string, unknown>>)[0]!.endsAt).toBe('2026-11-22T12:00:00.000Z');
  });

  it('Slack gets one readable line', () => {
    expect(slackPayload(notice).text).toBe(
      ':rotating_light: [FIRING] origin-5xx-spike (origin zone 101): 60 origin errors in 1h — count=60, reference=5.00',
    );
  });

  it('signs the exact body with HMAC-SHA256', () => {
    const body = JSON.stringify({ a: 1 });
    expect(signature('k', body)).toBe(`sha256=${createHmac('sha256', 'k').update(body).digest('hex')}`);
  });
});
