import { describe, expect, it } from 'vitest';
import { holdOrRelease, type Notified } from '../../src/alerts/held-notices.js';
import {
  formatMatcher,
  matchesAll,
  MatcherError,
  parseMatcher,
  type AlertLabels,
} from '../../src/alerts/silence-matchers.js';
import {
  alertLabels,
  planSilence,
  seriesLabels,
  silencing,
  type Silence,
} from '../../src/alerts/silences.js';
import { storedAlerts, storedLabels } from '../../src/alerts/stored-alerts.js';
import { transition, type AlertState } from '../../src/alerts/state-machine.js';

const labels: AlertLabels = alertLabels('origin-5xx', 'origin', 101, 'critical');

describe('silence matchers', () => {
  it.each([
    ['alertname=origin-5xx', true],
    ['alertname="origin-5xx"', true],
    ['alertname!=origin-5xx', false],
    ['zone=101', true],
    ['zone=10', false],
    ['zone=~"10[12]"', true],
    ['zone=~"10"', false], // anchored: a part of the value is not a match
    ['zone=~"01"', false],
    ['zone=~".*01"', true],
    ['zone=~"1|101"', true], // the alternative is anchored as a whole (^(?:1|101)$)
    ['zone!~"10[12]"', false],
    ['zone!~"2.*"', true],
    ['source=~"origin|shield"', true],
    ['severity=critical', true],
    ['severity!=""', true],
    ['severity=~"crit"', false],
  ])('%s → %s', (text, expected) => {
    expect(matchesAll([parseMatcher(text)], labels)).toBe(expected);
  });

  it('reads an absent label as the empty string, as Alertmanager does', () => {
    const none = alertLabels('stale', 'origin', 101);
    expect(matchesAll([parseMatcher('severity=""')], none)).toBe(true);
    expect(matchesAll([parseMatcher('severity!=critical')], none)).toBe(true);
    expect(matchesAll([parseMatcher('severity=~".+"')], none)).toBe(false);
  });

  it('needs every matcher; none matches nothing', () => {
    expect(matchesAll([parseMatcher('zone=101'), parseMatcher('source=shield')], labels)).toBe(false);
    expect(matchesAll([], labels)).toBe(false);
  });

  it.each([
    ['zone', /not a matcher/],
    ['zone==101', /not a matcher/],
    ['9zone=x', /not a matcher/],
    ['error code=x', /not a matcher/],
    ['zone=~"("', /not a regular expression/],
  ])('refuses %s', (text, message) => {
    expect(() => parseMatcher(text)).toThrow(MatcherError);
    expect(() => parseMatcher(text)).toThrow(message);
  });

  it('quotes a value so that it reads back the same', () => {
    const m = { name: 'alertname' as const, op: '=' as const, value: 'a "b" \\ c' };
    expect(parseMatcher(formatMatcher(m))).toEqual(m);
  });
});

describe('planned silences', () => {
  const now = Date.parse('2026-11-26T00:00:00Z');

  it('silences a rule in some zones for an hour unless told', () => {
    const s = planSilence({ rule: 'r', zones: [101, 102], match: ['severity=critical'] }, 'abc', now);
    expect(s.matchers.map(formatMatcher)).toEqual([
      'alertname="r"',
      'zone=~"101|102"',
      'severity="critical"',
    ]);
    expect(s.endsAt - s.startsAt).toBe(3_600_000);
    expect(matchesAll(s.matchers, alertLabels('r', 'origin', 101, 'critical'))).toBe(true);
    expect(matchesAll(s.matchers, alertLabels('r', 'origin', 1101, 'critical'))).toBe(false);
  });

  it('takes --for or --until, never both, and an end after now', () => {
    expect(planSilence({ rule: 'r', zones: [], match: [], forMs: 7_200_000 }, 'a', now).endsAt).toBe(
      now + 7_200_000,
    );
    expect(planSilence({ rule: 'r', zones: [], match: [], until: now + 5 }, 'a', now).endsAt).toBe(now + 5);
    expect(() =>
      planSilence({ rule: 'r', zones: [], match: [], forMs: 1, until: now + 5 }, 'a', now),
    ).toThrow(/not both/);
    expect(() => planSilence({ rule: 'r', zones: [], match: [], until: now }, 'a', now)).toThrow(RangeError);
  });

  it("names a label beyond edgelog's own only for a sql rule (its statement's columns)", () => {
    expect(() => planSilence({ rule: 'r', zones: [], match: ['instance=x'] }, 'a', now)).toThrow(
      /unknown label "instance"/,
    );
    const s = planSilence({ rule: 'r', zones: [], match: ['error_code=~"5.."'], rowLabels: true }, 'a', now);
    expect(s.matchers.map(formatMatcher)).toEqual(['alertname="r"', 'error_code=~"5.."']);
    expect(matchesAll(s.matchers, seriesLabels('r', { error_code: '503' }))).toBe(true);
    expect(matchesAll(s.matchers, seriesLabels('r', { error_code: '403' }))).toBe(false);
    // A zone rule's alert has no such label: it reads as "".
    expect(matchesAll(s.matchers, alertLabels('r', 'origin', 101))).toBe(false);
  });

  it('holds only within [startsAt, endsAt)', () => {
    const s: Silence = planSilence({ rule: 'r', zones: [101], match: [] }, 'a', now);
    const l = alertLabels('r', 'origin', 101);
    expect(silencing([s], l, now - 1)).toEqual([]);
    expect(silencing([s], l, now)).toEqual([s]);
    expect(silencing([s], l, s.endsAt - 1)).toEqual([s]);
    expect(silencing([s], l, s.endsAt)).toEqual([]);
  });
});

describe('notices held by a silence', () => {
  const opts = { forMs: 0, renotifyMs: 4 * 3_600_000 };
  /** Evaluations in a row: [condition, silenced]; returns what was notified at each. */
  function run(steps: Array<[boolean, boolean]>, start?: { state: AlertState; notified: Notified }) {
    let state = start?.state;
    let notified: Notified | undefined = start?.notified;
    return steps.map(([condition, silenced], i) => {
      const now = 1000 * (i + 1);
      const d = holdOrRelease(transition(state, condition, now, opts), state, notified, silenced, now);
      state = d.next;
      notified = d.notified;
      return d.notify;
    });
  }

  it.each<[string, Array<[boolean, boolean]>, Array<'firing' | 'resolved' | null>]>([
    [
      'no silence: as before',
      [
        [true, false],
        [true, false],
        [false, false],
      ],
      ['firing', null, 'resolved'],
    ],
    [
      'fires inside a silence, still fires after it: one firing notice',
      [
        [true, true],
        [true, true],
        [true, false],
        [true, false],
      ],
      [null, null, 'firing', null],
    ],
    [
      'came and went inside the silence: nothing',
      [
        [true, true],
        [false, true],
        [false, false],
        [false, false],
      ],
      [null, null, null, null],
    ],
    [
      'fired inside, resolved as it ended: nothing',
      [
        [true, true],
        [false, false],
        [false, false],
      ],
      [null, null, null],
    ],
    [
      'fired before, resolved inside: one resolved notice after',
      [
        [true, false],
        [false, true],
        [false, false],
        [false, false],
      ],
      ['firing', null, 'resolved', null],
    ],
    [
      'fired before, flapped inside, fires after: nothing more',
      [
        [true, false],
        [false, true],
        [true, true],
        [true, false],
      ],
      ['firing', null, null, null],
    ],
  ])('%s', (_title, steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });

  it('reads a row saved before silences by its state (firing: was notified)', () => {
    const firing: AlertState = { state: 'firing', since: 0, lastNotifiedAt: 0, firstEvaluatedAt: 0 };
    const d = holdOrRelease(transition(firing, true, 10, opts), firing, undefined, false, 10);
    expect(d).toMatchObject({ notify: null, notified: 'firing' });
  });
});

describe("a sql rule's alert as silences see it", () => {
  it("carries its row's labels, under edgelog's own: a row cannot claim alertname, source, zone or severity", () => {
    const row = {
      alertname: 'other-rule',
      source: 'origin',
      severity: 'info',
      rule_type: 'spike',
      zone: '101',
      kind: 'odd',
    };
    expect({ ...seriesLabels('odd-rows', row, 'page') }).toEqual({
      alertname: 'odd-rows',
      source: 'sql',
      zone: '101',
      severity: 'page',
      kind: 'odd',
    });
    // Without a severity on the rule, the row's does not stand in for it.
    expect(matchesAll([parseMatcher('severity=info')], seriesLabels('odd-rows', row))).toBe(false);
    expect(matchesAll([parseMatcher('alertname=other-rule')], seriesLabels('odd-rows', row))).toBe(false);
    // zone is the row's zone id as receivers get it: 0 when it names none.
    expect(seriesLabels('q', { zone: 'abc' }).zone).toBe('0');
    expect(seriesLabels('q', {}).zone).toBe('0');
  });

  it('matches a hostile label name or value as text and nothing more', () => {
    const labels = seriesLabels(
      'q',
      JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string>,
    );
    expect(matchesAll([parseMatcher('__proto__=x')], labels)).toBe(true);
    expect(matchesAll([parseMatcher('constructor=y')], labels)).toBe(true);
    expect(matchesAll([parseMatcher('toString=""')], labels)).toBe(true);
    expect(matchesAll([parseMatcher('hasOwnProperty=~".+"')], seriesLabels('q', {}))).toBe(false);
    // A zone rule's alert (a plain object) has no such label either.
    expect(matchesAll([parseMatcher('constructor=~".+"')], alertLabels('r', 'origin', 101))).toBe(false);
    expect(matchesAll([parseMatcher('toString!=""')], alertLabels('r', 'origin', 101))).toBe(false);
  });

  it('reads stored series labels, and nothing from text that is not a JSON object of strings', () => {
    expect(storedLabels('{"zone":"101","kind":"a\\u001b"}')).toEqual({ zone: '101', kind: 'a\u001b' });
    for (const bad of ['', 'nope', '[1]', 'null', '"x"']) expect(storedLabels(bad)).toEqual({});
    expect(storedLabels('{"n":1,"k":"v"}')).toEqual({ k: 'v' });
  });

  it('stored alerts: a zone rule per zone, a sql rule per row, of the configured rules only', () => {
    const alerts = storedAlerts(
      [
        { rule: 'spike', zone_id: 101, source: 'origin', state: 'firing' },
        { rule: 'gone', zone_id: 101, source: 'origin', state: 'firing' },
      ],
      [
        { rule: 'rows', labels: '{"zone":"102","kind":"a"}', state: 'pending' },
        { rule: 'gone-sql', labels: '{}', state: 'firing' },
      ],
      [{ name: 'spike', severity: 'page' }, { name: 'rows' }],
    );
    expect(alerts.map((a) => [a.rule, a.state, a.labels.zone, a.labels.source, a.labels.kind])).toEqual([
      ['spike', 'firing', '101', 'origin', undefined],
      ['rows', 'pending', '102', 'sql', 'a'],
    ]);
  });
});
