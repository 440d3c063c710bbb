// Pure: Alertmanager-style label matchers for silences (`alertname="x"`, `zone=~"10[12]"`, `severity!=…`),
// so an operator's habits carry over. As in Alertmanager: regular expressions are anchored at both
// ends, and a label an alert lacks reads as the empty string (`severity=""` matches an alert with none).

/** The labels every alert carries that a silence may match. */
export const SILENCE_LABELS = ['alertname', 'zone', 'source', 'severity'] as const;
export type SilenceLabel = (typeof SILENCE_LABELS)[number];

export type MatchOp = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  /**
   * One of SILENCE_LABELS, or a label a sql rule's row carries (a column of its statement): any
   * Prometheus label name, as Alertmanager takes; an alert without it reads it as "".
   */
  name: string;
  op: MatchOp;
  value: string;
}

/**
 * An alert's labels as silences see them: edgelog's own (severity absent when the rule has none) and, for
 * a sql rule's alert, its row's others (silences.ts seriesLabels).
 */
export type AlertLabels = Record<SilenceLabel, string | undefined> &
  Readonly<Record<string, string | undefined>>;

export class MatcherError extends Error {
  override readonly name = 'MatcherError';
}

// name, operator, then a double-quoted value (with \" and \\ escapes) or a bare one (not starting with
// = or ~, so that `zone==1` is refused rather than read as the value "=1").
const MATCHER =
  /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|((?:[^"\s=~][^"\s]*)?))\s*$/;

/** Parses `name op value`; the value may be quoted (`zone=~"10[12]"`) or bare (`zone=101`). */
export function parseMatcher(text: string): Matcher {
  const m = MATCHER.exec(text);
  if (!m) {
    throw new MatcherError(
      `not a matcher: ${JSON.stringify(text)} (expected label=value, label!=value, label=~regex or label!~regex)`,
    );
  }
  const value = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[4]!;
  const matcher: Matcher = { name: m[1]!, op: m[2] as MatchOp, value };
  if (matcher.op === '=~' || matcher.op === '!~') anchored(matcher.value);
  return matcher;
}

/** The matcher as text, quoted so that parseMatcher reads it back. */
export function formatMatcher(m: Matcher): string {
  return `${m.name}${m.op}"${m.value.replace(/[\\"]/g, '\\$&')}"`;
}

/** Whether every matcher holds for the labels (a silence with no matcher matches nothing). */
export function matchesAll(matchers: readonly Matcher[], labels: AlertLabels): boolean {
  return matchers.length > 0 && matchers.every((m) => matches(m, labelOf(labels, m.name)));
}

/** The label's value, "" when absent; own labels only (a matcher on `constructor` reads "", not a function). */
function labelOf(labels: AlertLabels, name: string): string {
  const v = Object.hasOwn(labels, name) ? labels[name] : undefined;
  return typeof v === 'string' ? v : '';
}

function matches(m: Matcher, value: string): boolean {
  switch (m.op) {
    case '=':
      return value === m.value;
    case '!=':
      return value !== m.value;
    case '=~':
      return anchored(m.value).test(value);
    case '!~':
      return !anchored(m.value).test(value);
  }
}

const compiled = new Map<string, RegExp>();

/** The expression anchored at both ends, as Alertmanager does (`10[12]` does not match `1101`). */
function anchored(source: string): RegExp {
  let re = compiled.get(source);
  if (!re) {
    try {
      re = new RegExp(`^(?:${source})$`, 'u');
    } catch (err) {
      throw new MatcherError(
        `not a regular expression: ${JSON.stringify(source)} (${(err as Error).message})`,
      );
    }
    compiled.set(source, re);
  }
  return re;
}
