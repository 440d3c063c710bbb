import { describe, expect, it } from 'vitest';
import { groupId, handOver, noticeGroup } from '../../src/alerts/notice-groups.js';
import {
  alertmanagerGroupPayload,
  common,
  slackGroupPayload,
  type Notice,
} from '../../src/alerts/payload.js';

const notice = (zone: number, over: Partial<Notice> = {}): Notice => ({
  id: `n${zone}`,
  rule: 'r',
  ruleType: 'spike',
  source: 'origin',
  zone,
  status: 'firing',
  startsAt: 0,
  endsAt: null,
  severity: 'page',
  summary: `zone ${zone} spiked`,
  details: { window: 'w', count: String(zone) },
  fingerprint: `f${zone}`,
  ...over,
});

describe('notice groups', () => {
  it('a window of groupWait per rule; none when it is 0', () => {
    expect(noticeGroup('r', 61_000, 30_000)).toEqual({ key: 'r@60000', closesAt: 90_000 });
    expect(noticeGroup('r', 89_999, 30_000)).toEqual({ key: 'r@60000', closesAt: 90_000 });
    expect(noticeGroup('r', 90_000, 30_000)?.key).toBe('r@90000');
    expect(noticeGroup('r', 61_000, 0)).toBeUndefined();
    expect(groupId('r@60000')).toMatch(/^g[0-9a-f]{32}$/);
    expect(groupId('r@60000')).not.toBe(groupId('r@90000'));
  });

  it('hands closed groups of two or more per hook, a group of one alone, and waits for open ones', () => {
    const g = (key: string, closesAt: number) => ({ group: { key, closesAt } });
    const p = (id: string, hook: string, group?: { group: { key: string; closesAt: number } }) => ({
      id,
      hook,
      notice: { ...group },
    });
    const out = handOver(
      [
        p('a', 'ops', g('r@0', 30)),
        p('b', 'ops', g('r@0', 30)),
        p('a', 'chat', g('r@0', 30)),
        p('c', 'ops'),
        p('d', 'ops', g('r@30', 60)),
        p('e', 'ops', g('s@30', 45)),
      ],
      40,
    );
    expect(out.groups).toEqual([
      {
        id: groupId('r@0'),
        hook: 'ops',
        members: [expect.objectContaining({ id: 'a' }), expect.objectContaining({ id: 'b' })],
      },
    ]);
    expect(out.single.map((s) => `${s.id}-${s.hook}`).sort()).toEqual(['a-chat', 'c-ops']);
    expect(out.nextClose).toBe(45);
    expect(handOver([p('d', 'ops', g('r@30', 60))], 40, true).single).toHaveLength(1);
  });
});

describe('grouped payloads', () => {
  it('commonLabels and commonAnnotations hold only what every alert shares', () => {
    expect(common([{ a: '1', b: '2' }, { a: '1', b: '3' }, { a: '1' }])).toEqual({ a: '1' });
    expect(common([{ a: '1' }, { b: '1' }])).toEqual({});
    const body = alertmanagerGroupPayload([notice(101), notice(102, { severity: undefined })], 'ops');
    expect(body).toMatchObject({
      status: 'firing',
      groupLabels: { alertname: 'r' },
      commonLabels: { alertname: 'r', source: 'origin', rule_type: 'spike' },
      commonAnnotations: { window: 'w' },
      groupKey: '{}:{alertname="r"}',
    });
    expect(body.commonLabels).not.toHaveProperty('severity');
    expect(body.alerts).toHaveLength(2);
    const resolved = alertmanagerGroupPayload([notice(1, { status: 'resolved' })], 'ops');
    expect(resolved.status).toBe('resolved');
  });

  it('Slack: one message, a line per alert', () => {
    const { text } = slackGroupPayload([notice(101), notice(102, { status: 'resolved' })]);
    expect(text.split('\n')).toEqual([
      ':rotating_light: [FIRING:1 RESOLVED:1] r',
      '• [FIRING] origin zone 101: zone 101 spiked — window=w, count=101',
      '• [RESOLVED] origin zone 102: zone 102 spiked — window=w, count=102',
    ]);
  });
});
