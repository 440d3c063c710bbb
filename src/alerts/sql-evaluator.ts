// Evaluates sql rules: runs the rule's statement (read-only, bounded), turns its rows into alerts
// (sql-rows.ts) and moves each alert's state on — a row that appears fires (after `for`), one that goes
// away resolves — saving state and notices together per alert, compare-and-set, as the evaluator does
// for the other kinds. A statement that fails or times out decides nothing: the states stay (a firing
// alert is re-notified on schedule), and the failure is logged and shown as the reason.
// Silences hold a series' notices as they hold any alert's (held-notices.ts): they match the row's labels
// under edgelog's own (silences.ts seriesLabels), and the series' `notified` remembers what receivers
// last heard, so that the first evaluation after the silence tells what changed.
import type { Config, SqlRule } from '../config/index.js';
import { coerceError, ConfigError, EdgelogError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import type { RuleQueries } from '../store/store.js';
import { StoreQueryError } from '../store/store-query-error.js';
import type { AlertSeriesStore, StoredAlertState } from '../store/store.js';
import { holdOrRelease, noticeSpan } from './held-notices.js';
import { logSaved } from './saved-log.js';
import type { Notice } from './payload.js';
import { seriesLabels, silencing, type Silence } from './silences.js';
import { seriesFingerprint, sqlRows, zoneOf, type SeriesRow } from './sql-rows.js';
import { transition, type Condition } from './state-machine.js';
import { safeText } from '../format/terminal-text.js';
import { cutText, MAX_LABEL_CHARS, MAX_RESULT_CHARS, MAX_SUMMARY_CHARS } from './label-bounds.js';

export interface SeriesEvaluation {
  rule: string;
  zone: number;
  labels: Record<string, string>;
  state: string;
  condition: Condition;
  value: number | null;
  threshold: null;
  reason: string;
  notified: 'firing' | 'resolved' | null;
  /** Ids of the silences that hold this alert's notices now (empty: none). */
  silencedBy: string[];
}

const SAVE_ATTEMPTS = 5;

export interface SqlEvaluatorDeps {
  config: Config;
  series: AlertSeriesStore<Notice>;
  queries: RuleQueries;
  logger: Logger;
  now: () => number;
}

/** `a=1, b="x y"`: labels as a line names them, each value escaped for a terminal. */
export function describeLabels(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${safeText(k)}=${/^[\w.:/-]+$/.test(v) ? v : `"${safeText(v)}"`}`)
    .join(', ');
}

export class SqlRuleEvaluator {
  constructor(private readonly deps: SqlEvaluatorDeps) {}

  /**
   * Refuses, naming the rule and its key, a statement that does not parse or would write: a mistake in
   * the configuration (ConfigError). A store that cannot be reached is not one, and keeps its own error.
   */
  async check(rule: SqlRule): Promise<void> {
    try {
      await this.deps.queries.check(rule.sql);
    } catch (err) {
      const what = `alert rule "${rule.name}" (sql): ${coerceError(err).message}`;
      if (err instanceof StoreQueryError) {
        const key = `alerts.rules[${this.deps.config.alerts.rules.indexOf(rule)}].sql`;
        throw new ConfigError(`${what}; fix ${key} or remove the rule`, { cause: err });
      }
      if (err instanceof EdgelogError) throw err;
      throw new Error(what, { cause: err });
    }
  }

  /** @param silences - those that may hold now (whether one holds is decided at each series' time) */
  async evaluate(rule: SqlRule, silences: readonly Silence[] = []): Promise<SeriesEvaluation[]> {
    const { logger } = this.deps;
    let rows: SeriesRow[] | null = null;
    let failure = '';
    try {
      const result = await this.deps.queries.run(rule.sql, {
        timeoutMs: rule.timeout,
        maxRows: rule.maxRows,
        maxValueChars: MAX_LABEL_CHARS,
        maxResultChars: MAX_RESULT_CHARS,
      });
      const parsed = sqlRows(result.columns, result.rows);
      for (const problem of parsed.problems) logger.warn({ rule: rule.name }, `sql rule: ${problem}`);
      if (result.sizeBound)
        logger.warn(
          { rule: rule.name, rows: result.rows.length, maxChars: MAX_RESULT_CHARS },
          'sql rule: rows beyond the size bound left out (their labels together are too long)',
        );
      else if (result.more)
        logger.warn({ rule: rule.name, maxRows: rule.maxRows }, 'sql rule: rows beyond maxRows left out');
      rows = parsed.series;
    } catch (err) {
      failure = coerceError(err).message;
      logger.warn({ rule: rule.name, err: failure }, 'sql rule: the statement failed; states kept');
    }
    const current = new Map((rows ?? []).map((r) => [r.series, r]));
    const out: SeriesEvaluation[] = [];
    let states = await this.deps.series.states(rule.name);
    const keys = new Set([...states.keys(), ...current.keys()]);
    for (const key of keys) {
      for (let attempt = 1; ; attempt++) {
        const done = await this.evaluateOne(
          rule,
          key,
          states.get(key),
          current.get(key),
          rows,
          failure,
          silences,
        );
        if (done === null) break; // gone, not firing, and nothing left to tell its receivers
        if (done.saved || attempt >= SAVE_ATTEMPTS) {
          out.push(done.saved ? done.evaluation : { ...done.evaluation, notified: null });
          break;
        }
        states = await this.deps.series.states(rule.name);
      }
    }
    return out;
  }

  private async evaluateOne(
    rule: SqlRule,
    key: string,
    prev: StoredAlertState | undefined,
    row: SeriesRow | undefined,
    rows: SeriesRow[] | null,
    failure: string,
    silences: readonly Silence[],
  ): Promise<{ saved: boolean; evaluation: SeriesEvaluation } | null> {
    const now = this.deps.now();
    const condition: Condition = rows === null ? null : row !== undefined;
    // A series seen before and neither there now nor changing: nothing to write; unless receivers last
    // heard it fire (its resolution was held by a silence): that is still to tell.
    const settled = !prev || prev.state === 'inactive' || prev.state === 'resolved';
    if (!row && settled && prev?.notified !== 'firing') return null;
    const labels = row?.labels ?? (JSON.parse(key) as Record<string, string>);
    const silencedBy = silencing(silences, seriesLabels(rule.name, labels, rule.severity), now).map(
      (s) => s.id,
    );
    // A silence holds the notice, not the state; the first evaluation after it tells what changed.
    const { next, notify, notified } = holdOrRelease(
      transition(prev, condition, now, {
        forMs: rule.for,
        renotifyMs: this.deps.config.alerts.renotifyEvery,
      }),
      prev,
      prev?.notified,
      silencedBy.length > 0,
      now,
    );
    const value = row?.value ?? null;
    const zone = zoneOf(labels);
    const fp = seriesFingerprint(rule.name, key);
    const reason =
      rows === null
        ? `the statement failed: ${failure}`
        : row
          ? 'returned by the statement'
          : 'no longer returned';
    const what = describeLabels(labels);
    const notices =
      notify === null
        ? []
        : rule.hooks.map((hook) => {
            const notice: Notice = {
              id: `${fp}-${notify}-${now}`,
              rule: rule.name,
              ruleType: 'sql',
              source: 'sql',
              zone,
              status: notify,
              ...noticeSpan(notify, next, prev, now),
              severity: rule.severity,
              summary: cutText(
                notify === 'firing'
                  ? `${what}${value === null ? '' : ` (value ${value})`}`
                  : `${what}: no longer returned`,
                MAX_SUMMARY_CHARS,
              ),
              details: {
                ...(value === null ? {} : { value: String(value) }),
                state: next.state,
                // What the bounds cut (label-bounds.ts): receivers are told the text is not whole.
                ...(row?.trimmed
                  ? { trimmed: `${row.trimmed.join(', ')} cut to ${MAX_LABEL_CHARS} characters` }
                  : {}),
              },
              fingerprint: fp,
              labels,
            };
            return { hook, notice };
          });
    const saved = await this.deps.series.save(
      { rule: rule.name, series: key, fingerprint: fp },
      prev,
      { ...next, notified },
      { value, detail: { reason } },
      notices,
      now,
    );
    if (saved)
      logSaved(
        this.deps.logger,
        { rule: rule.name, series: key },
        rule.hooks,
        notify,
        silencedBy,
        next,
        prev,
      );
    return {
      saved,
      evaluation: {
        rule: rule.name,
        zone,
        labels,
        state: next.state,
        condition,
        value,
        threshold: null,
        reason,
        notified: notify,
        silencedBy,
      },
    };
  }
}
