// Pure: Alertmanager-style label matchers for silences (`alertname="x"`, `zone=~"10[12]"`, `severity!=…`),
// so an operator's habits carry over. As in Alertmanager: a value is unescaped as its parser does (`\"`,
// `\\` and `\n`; any other backslash is kept, so `\w` and `\.` reach the regular expression), regular
// expressions are RE2's syntax anchored at both ends (`^(?:…)$`), and a label an alert lacks reads as the
// empty string (`severity=""` matches an alert with none).
//
// Matching runs in linear time: a sql rule's labels are archived text (attacker-written WAF logs), and a
// backtracking engine (JavaScript's RegExp) took minutes on `(\w+)*\.php` against 34 letters and a `!`.
// re2js is a port of RE2 (Go's regexp, Alertmanager's engine): the same syntax, no backtracking, pure
// JavaScript (no native build, docs/ARCHITECTURE.md "Dependencies").
import { RE2JS, RE2JSException } from 're2js';
import { cutText, MAX_LABEL_CHARS } from './label-bounds.js';

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

// Alertmanager's label name (colons included), operator, then a double-quoted value or a bare one (not
// starting with = or ~, so that `zone==1` is refused rather than read as the value "=1"). Quotes inside
// a value are its escapes' business (unescape below).
const MATCHER =
  /^\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\[\s\S])*)"|((?:[^"\s=~](?:[^"]*[^"\s])?)?))\s*$/;

/**
 * A value as Alertmanager's parser unescapes it (pkg/labels/parse.go): `\"` a quote, `\\` a backslash,
 * `\n` a line feed; any other backslash is literal (`\w` stays `\w`), a trailing one too.
 */
export function unescapeValue(raw: string): string {
  return raw.replace(/\\([\s\S]?)/g, (all, ch: string) =>
    ch === 'n' ? '\n' : ch === '"' || ch === '\\' ? ch : all,
  );
}

/** Parses `name op value`; the value may be quoted (`zone=~"10[12]"`) or bare (`zone=101`). */
export function parseMatcher(text: string): Matcher {
  const m = MATCHER.exec(text);
  if (!m) {
    throw new MatcherError(
      `not a matcher: ${JSON.stringify(text)} (expected label=value, label!=value, label=~regex or label!~regex)`,
    );
  }
  const value = unescapeValue(m[3] ?? m[4]!);
  const matcher: Matcher = { name: m[1]!, op: m[2] as MatchOp, value };
  if (matcher.op === '=~' || matcher.op === '!~') anchored(matcher.value);
  return matcher;
}

/** The matcher as text, quoted so that parseMatcher reads it back. */
export function formatMatcher(m: Matcher): string {
  return `${m.name}${m.op}"${m.value.replace(/[\\"]/g, '\\$&').replaceAll('\n', '\\n')}"`;
}

/** Whether every matcher holds for the labels (a silence with no matcher matches nothing). */
export function matchesAll(matchers: readonly Matcher[], labels: AlertLabels): boolean {
  return matchers.length > 0 && matchers.every((m) => matches(m, labelOf(labels, m.name)));
}

/**
 * The label's value, "" when absent; own labels only (a matcher on `constructor` reads "", not a
 * function). Cut at MAX_LABEL_CHARS, as sql-rows.ts cuts a row's: a label stored before that bound
 * existed is matched as one stored now would be.
 */
function labelOf(labels: AlertLabels, name: string): string {
  const v = Object.hasOwn(labels, name) ? labels[name] : undefined;
  return typeof v === 'string' ? cutText(v, MAX_LABEL_CHARS) : '';
}

function matches(m: Matcher, value: string): boolean {
  switch (m.op) {
    case '=':
      return value === m.value;
    case '!=':
      return value !== m.value;
    case '=~':
      return anchored(m.value).matches(value);
    case '!~':
      return !anchored(m.value).matches(value);
  }
}

/** Compiled expressions, by source; bounded (silences are few, but a list may hold many ended ones). */
const compiled = new Map<string, RE2JS>();
const COMPILED_MAX = 1000;

/** The expression anchored at both ends, as Alertmanager does (`10[12]` does not match `1101`). */
function anchored(source: string): RE2JS {
  let re = compiled.get(source);
  if (!re) {
    try {
      re = RE2JS.compile(`^(?:${source})$`);
    } catch (err) {
      if (!(err instanceof RE2JSException)) throw err;
      throw new MatcherError(`not a regular expression: ${JSON.stringify(source)} (${err.message})`);
    }
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(source, re);
  }
  return re;
}
