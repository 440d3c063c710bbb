// Two alert promises pinned on the pure parts that keep them (issue 28, item 8):
// - after a silence ends, renotify is counted from the notice sent then, not from when the alert fired
//   inside the silence (held-notices.ts sets lastNotifiedAt when it releases a held notice);
// - notices of different rules never share a group, even for one hook in one window (notice-groups.ts:
//   a group is a rule's, per hook).
import { describe, expect, it } from 'vitest';
import { holdOrRelease, type Notified } from '../../src/alerts/held-notices.js';
import { handOver, noticeGroup, type Pending } from '../../src/alerts/notice-groups.js';
import type { Notice } from '../../src/alerts/payload.js';
import { transition, type AlertState } from '../../src/alerts/state-machine.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-23T00:00:00Z');
const at = (hour: number) => T0 + hour * H;

describe('renotify after a silence', () => {
  it('counts from the notice sent when the silence ends (renotifyEvery 4h, fired 10:00, silence to 13:00)', () => {
    const opts = { forMs: 0, renotifyMs: 4 * H };
    let state: AlertState | undefined;
    let notified: Notified | undefined;
    const sent: number[] = [];
    // Hourly evaluations from 10:00 to 18:00, the condition holding throughout.
    for (let hour = 10; hour <= 18; hour++) {
      const now = at(hour);
      const silenced = now < at(13);
      const d = holdOrRelease(transition(state, true, now, opts), state, notified, silenced, now);
      [state, notified] = [d.next, d.notified];
      if (d.notify === 'firing') sent.push(hour);
    }
    // 13:00: the silence is over, receivers hear it fire; the next is 4h after that notice, not 14:00
    // (4h after it fired inside the silence).
    expect(sent).toEqual([13, 17]);
  });
});

describe('notice groups are per rule', () => {
  const notice = (rule: string, zone: number, now: number): Notice => ({
    id: `${rule}-${zone}`,
    rule,
    ruleType: 'spike',
    source: 'origin',
    zone,
    status: 'firing',
    startsAt: now,
    endsAt: null,
    summary: `${rule} ${zone}`,
    details: {},
    fingerprint: `${rule}${zone}`,
    group: noticeGroup(rule, now, 30_000),
  });

  it('two rules firing in one window for one hook: a group each, never one together', () => {
    const now = at(10) + 5_000;
    const pending: Array<Pending<Notice>> = [
      { id: 'a1', hook: 'ops', notice: notice('rule-a', 101, now) },
      { id: 'a2', hook: 'ops', notice: notice('rule-a', 102, now) },
      { id: 'b1', hook: 'ops', notice: notice('rule-b', 101, now) },
      { id: 'b2', hook: 'ops', notice: notice('rule-b', 102, now + 1) },
      { id: 'c1', hook: 'ops', notice: notice('rule-c', 101, now) },
    ];
    for (const closeAll of [true, false]) {
      const out = handOver(pending, closeAll ? now : at(11), closeAll);
      const groups = out.groups.map((g) => g.members.map((m) => m.notice.rule));
      expect(groups.map((rules) => new Set(rules).size)).toEqual([1, 1]);
      expect(groups.map((rules) => rules.join(',')).sort()).toEqual(['rule-a,rule-a', 'rule-b,rule-b']);
      expect(out.single.map((s) => s.id)).toEqual(['c1']);
    }
  });
});
