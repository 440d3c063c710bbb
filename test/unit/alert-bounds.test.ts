// The bounds on what a sql rule's rows and a hook's template may cost (issue 28, item 7): a label value
// is cut at MAX_LABEL_CHARS, a row keeps MAX_LABELS labels, a summary MAX_SUMMARY_CHARS, a rendered
// text MAX_RENDERED_CHARS; each cut is marked and said, and a template that fails still sends the notice.
import { describe, expect, it } from 'vitest';
import {
  cutText,
  CUT_MARK,
  MAX_LABEL_CHARS,
  MAX_LABELS,
  MAX_RENDERED_CHARS,
} from '../../src/alerts/label-bounds.js';
import { sqlRows } from '../../src/alerts/sql-rows.js';
import { compileTemplates, boundedText } from '../../src/alerts/templates.js';
import { noticeBody } from '../../src/alerts/notice-request.js';
import type { Notice } from '../../src/alerts/payload.js';
import { boundedValue } from '../../src/store/rule-queries.js';

describe('label bounds', () => {
  it('cuts text with a mark, never between the halves of a surrogate pair', () => {
    expect(cutText('abcdef', 6)).toBe('abcdef');
    expect(cutText('abcdefg', 6)).toBe(`abcde${CUT_MARK}`);
    const cut = cutText(`abcd😀x`, 6);
    expect(cut).toBe(`abcd${CUT_MARK}`);
    expect(cut.length).toBeLessThanOrEqual(6);
  });

  it('a row: each label cut at the bound and named, MAX_LABELS labels kept, the cuts said', () => {
    const huge = 'u'.repeat(2_000_000);
    const r = sqlRows(['url', 'zone', 'value'], [[huge, 101n, 3n]]);
    const [row] = r.series;
    expect(row!.labels.url).toHaveLength(MAX_LABEL_CHARS);
    expect(row!.labels.url!.endsWith(CUT_MARK)).toBe(true);
    expect(row!.trimmed).toEqual(['url']);
    expect(row!.series.length).toBeLessThan(MAX_LABEL_CHARS + 100);
    expect(r.problems).toEqual([`1 row with a label over ${MAX_LABEL_CHARS} characters: cut`]);
    // A value at the bound is whole, and not said to be cut.
    const whole = sqlRows(['url'], [['v'.repeat(MAX_LABEL_CHARS)]]);
    expect(whole.series[0]!.labels.url).toHaveLength(MAX_LABEL_CHARS);
    expect(whole.series[0]!.trimmed).toBeUndefined();

    const columns = Array.from({ length: MAX_LABELS + 3 }, (_, i) => `c${i}`);
    const wide = sqlRows([...columns, 'value'], [[...columns.map(() => 'x'), 1n]]);
    expect(Object.keys(wide.series[0]!.labels)).toHaveLength(MAX_LABELS);
    expect(wide.series[0]!.value).toBe(1);
    expect(wide.problems.filter((p) => /left out/.test(p))).toHaveLength(3);
  });

  it('the store keeps a value to the bound and one more character (bytes: half as many)', () => {
    expect(boundedValue('a'.repeat(10), 4)).toEqual(['aaaaa', 5]);
    expect(boundedValue('abc', 4)).toEqual(['abc', 3]);
    const [bytes, n] = boundedValue(new Uint8Array(100), 8);
    expect((bytes as Uint8Array).length).toBe(5);
    expect(n).toBe(10);
    expect(boundedValue(7n, 4)).toEqual([7n, 8]);
  });
});

describe('rendered notices', () => {
  const notice = (summary: string): Notice => ({
    id: 'n1',
    rule: 'big-urls',
    ruleType: 'sql',
    source: 'sql',
    zone: 0,
    status: 'firing',
    startsAt: 0,
    endsAt: null,
    summary,
    details: {},
    fingerprint: 'f',
  });

  it('a text over the bound is cut and says so', () => {
    const text = boundedText('x'.repeat(MAX_RENDERED_CHARS * 3));
    expect(text.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    expect(text).toMatch(/\[cut by edgelog: 98304 characters, over the bound of 32768\]$/);
  });

  it('a template over its memory bound: the notice is still sent, with the default text, and says why', async () => {
    // A summary appended to itself: past LiquidJS's memory bound on a long summary.
    const template = `{{ alerts[0].summary${' | append: alerts[0].summary'.repeat(5)} }}`;
    const templates = await compileTemplates({
      chat: { type: 'slack', url: 'https://hooks.slack.com/services/T/B/C', template, timeout: 10_000 },
      ops: { type: 'webhook', url: 'http://127.0.0.1:9/h', template, timeout: 10_000 } as never,
    } as never);
    const d = { key: 'n1', notices: [notice(`<!channel> ${'s'.repeat(2_000_000)}`)] };
    const slack = JSON.parse(noticeBody('chat', { type: 'slack' } as never, d, templates.get('chat'))) as {
      text: string;
    };
    expect(slack.text).toMatch(
      /^\[edgelog: the template of hook chat failed \(.*memory.*\); the default text follows\] :rotating_light: \[FIRING\] big-urls/,
    );
    expect(slack.text).not.toContain('<!channel>');
    expect(slack.text.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    const hook = JSON.parse(noticeBody('ops', { type: 'webhook' } as never, d, templates.get('ops'))) as {
      alerts: Array<{ annotations: { description: string } }>;
    };
    expect(hook.alerts[0]!.annotations.description).toMatch(/^\[edgelog: the template of hook ops failed/);
  });
});
