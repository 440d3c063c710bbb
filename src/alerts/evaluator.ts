// Evaluates alert rules against the archive: gathers what each rule measures, runs the pure judgement
// and state machine, and saves the new state with its notices (the outbox) in one transaction.
import { GUARDIAN_COUNTER_COLUMNS } from '../values/guardian-counters.js';
import type {
  AlertRule,
  Config,
  FlatlineRule,
  GuardianRule,
  NewTermRule,
  SpikeRule,
} from '../config/index.js';
import { formatDuration } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { AlertStateStore, RuleReads, SilencesStore, TermsStore } from '../store/store.js';
import { termField } from '../store/terms.js';
import { describeNewValues, judgeNewTerm, NAMED_VALUES, planNewTerm } from './new-term.js';
import type { SqlRuleEvaluator } from './sql-evaluator.js';
import { holdOrRelease, noticeSpan } from './held-notices.js';
import { noticeGroup } from './notice-groups.js';
import { alertLabels, silenceFromRow, silencing, type Silence } from './silences.js';
import { judgeIncrease, minimumGapMs } from './guardian-increase.js';
import { fingerprint, type Notice } from './payload.js';
import { judgeSpike, windowsToCount, type Window } from './spike.js';
import { transition, type Condition } from './state-machine.js';
import { logSaved } from './saved-log.js';

export interface EvaluationScope {
  /** Only rules of this source ('guardian' for guardian rules, 'sql' for sql rules). */
  source?: 'origin' | 'shield' | 'guardian' | 'sql';
  zone?: number;
}

export interface Evaluation {
  rule: string;
  zone: number;
  state: string;
  condition: Condition;
  value: number | null;
  threshold: number | null;
  reason: string;
  notified: 'firing' | 'resolved' | null;
  /** Ids of the silences that hold this alert's notices now (empty: none). */
  silencedBy: string[];
  /** A sql rule's alert: the labels of its row. */
  labels?: Record<string, string>;
}

/** Rule kinds judged per zone (the others: sql rules, judged per row of their statement). */
type ZoneRule = Exclude<AlertRule, { type: 'sql' }>;

interface Measurement {
  condition: Condition;
  value: number | null;
  threshold: number | null;
  reason: string;
  summary: { firing: string; resolved: string };
  details: Record<string, string>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Reads and saves of one rule's state before leaving it to evaluations that keep saving first. */
const SAVE_ATTEMPTS = 5;

/**
 * What the evaluator uses of the alerts store: rule state (read, compare-and-set save) and what the
 * rules measure; not the outbox (the notifier's).
 */
export type RuleStateReads = Pick<AlertStateStore<Notice>, 'getState' | 'save'> & RuleReads;

export class AlertEvaluator {
  constructor(
    private readonly deps: {
      config: Config;
      repo: RuleStateReads;
      logger: Logger;
      now: () => number;
      /** Where silences are read. @defaultValue none: nothing is silenced */
      silences?: Pick<SilencesStore, 'list'> | undefined;
      /** What new-term rules read. @defaultValue none: a new-term rule then fails to evaluate */
      terms?: TermsStore;
      /** Evaluates sql rules. @defaultValue none: a sql rule then fails to evaluate */
      sql?: SqlRuleEvaluator;
    },
  ) {}

  /** Checks what can be checked before the first evaluation: each sql rule's statement. */
  async check(): Promise<void> {
    for (const rule of this.deps.config.alerts.rules) {
      if (rule.type !== 'sql') continue;
      if (!this.deps.sql) throw new Error(`alert rule "${rule.name}" (sql): no query path to run it on`);
      await this.deps.sql.check(rule);
    }
  }

  /** Evaluates every rule (or those in scope) for each of its zones. */
  async evaluate(scope: EvaluationScope = {}): Promise<Evaluation[]> {
    const { config } = this.deps;
    const results: Evaluation[] = [];
    // Read once per evaluation; whether one holds is decided at each alert's own time.
    const silences = this.deps.silences
      ? (await this.deps.silences.list({ endedAfter: this.deps.now() })).map(silenceFromRow)
      : [];
    // One grouping time for the whole pass: the zones of one rule judged together share a group even
    // when the clock crosses a window's end between them (seen as two payloads for one `alerts check`).
    const passAt = this.deps.now();
    for (const rule of config.alerts.rules) {
      if (rule.type === 'sql') {
        // Not tied to a source or zone: judged on the schedule and by `alerts check`, not after each day.
        if ((scope.source !== undefined && scope.source !== 'sql') || scope.zone !== undefined) continue;
        if (!this.deps.sql) throw new Error(`alert rule "${rule.name}" (sql): no query path to run it on`);
        // Each row is matched by its labels under edgelog's own (silences.ts seriesLabels).
        results.push(...(await this.deps.sql.evaluate(rule, silences)));
        continue;
      }
      const source = rule.type === 'guardian' ? 'guardian' : rule.source;
      if (scope.source && scope.source !== source) continue;
      for (const zone of this.zonesOf(rule)) {
        if (scope.zone !== undefined && scope.zone !== zone) continue;
        results.push(await this.evaluateOne(rule, source, zone, silences, passAt));
      }
    }
    return results;
  }

  private zonesOf(rule: ZoneRule): number[] {
    if (rule.zones) return rule.zones;
    const zones =
      rule.type === 'guardian' || rule.source === 'shield'
        ? this.deps.config.shieldZones
        : this.deps.config.pullZones;
    return zones.map((z) => z.id);
  }

  /**
   * One rule for one zone. The save is a compare-and-set on the state read: when another evaluation
   * saved first (two workers, `alerts check` beside `run`), this one reads again and decides from there,
   * so a transition is made, and notified, once.
   */
  private async evaluateOne(
    rule: ZoneRule,
    source: string,
    zone: number,
    silences: readonly Silence[],
    passAt: number,
  ): Promise<Evaluation> {
    for (let attempt = 1; ; attempt++) {
      const done = await this.tryEvaluate(rule, source, zone, silences, passAt);
      if (done.saved) return done.evaluation;
      if (attempt >= SAVE_ATTEMPTS) {
        // Others keep moving the state on: they made the transitions; this one notifies nothing.
        this.deps.logger.warn(
          { rule: rule.name, zone, attempts: attempt },
          'alert state kept changing under this evaluation; left to the others',
        );
        return { ...done.evaluation, notified: null };
      }
    }
  }

  private async tryEvaluate(
    rule: ZoneRule,
    source: string,
    zone: number,
    silences: readonly Silence[],
    /** When the evaluation pass began: the notices' group (notice-groups.ts). */
    passAt: number,
  ): Promise<{ saved: boolean; evaluation: Evaluation }> {
    const { repo, config } = this.deps;
    const now = this.deps.now();
    const prev = await repo.getState(rule.name, zone);
    const m =
      rule.type === 'spike'
        ? await this.measureSpike(rule, zone, now)
        : rule.type === 'flatline'
          ? await this.measureFlatline(rule, zone, now, prev?.firstEvaluatedAt ?? now)
          : rule.type === 'new-term'
            ? await this.measureNewTerm(rule, zone, now)
            : await this.measureGuardian(rule, zone);
    const silencedBy = silencing(silences, alertLabels(rule.name, source, zone, rule.severity), now).map(
      (s) => s.id,
    );
    // A silence holds the notice, not the state; the first evaluation after it tells what changed.
    const { next, notify, notified } = holdOrRelease(
      transition(prev, m.condition, now, { forMs: rule.for, renotifyMs: config.alerts.renotifyEvery }),
      prev,
      prev?.notified,
      silencedBy.length > 0,
      now,
    );
    const fp = fingerprint(rule.name, source, zone);
    const notices =
      notify === null
        ? []
        : rule.hooks.map((hook) => {
            const notice: Notice = {
              id: `${fp}-${notify}-${now}`,
              rule: rule.name,
              ruleType: rule.type,
              source,
              zone,
              status: notify,
              ...noticeSpan(notify, next, prev, now),
              severity: rule.severity,
              summary: notify === 'firing' ? m.summary.firing : m.summary.resolved,
              details: { ...m.details, state: next.state },
              fingerprint: fp,
              group: noticeGroup(rule.name, passAt, config.alerts.groupWait),
            };
            return { hook, notice };
          });
    const saved = await repo.save(
      { rule: rule.name, zone, source, fingerprint: fp },
      prev,
      { ...next, notified },
      { value: m.value, threshold: m.threshold, detail: { reason: m.reason, ...m.details } },
      notices,
      now,
    );
    if (saved)
      logSaved(this.deps.logger, { rule: rule.name, zone }, rule.hooks, notify, silencedBy, next, prev);
    return {
      saved,
      evaluation: {
        rule: rule.name,
        zone,
        state: next.state,
        condition: m.condition,
        value: m.value,
        threshold: m.threshold,
        reason: m.reason,
        notified: notify,
        silencedBy,
      },
    };
  }

  private async measureSpike(rule: SpikeRule, zone: number, now: number): Promise<Measurement> {
    const { repo } = this.deps;
    const params = { ...rule, windowMs: rule.window };
    const coverage = await repo.coverage(rule.source, zone);
    // The judgement is pure and synchronous: the counts it may ask for are read first.
    const counts = new Map<string, number>();
    const id = (w: Window) => `${w.from}/${w.to}`;
    for (const w of windowsToCount(params, coverage, now)) {
      if (!counts.has(id(w)))
        counts.set(id(w), await repo.count(rule.source, zone, w.from, w.to, rule.filter));
    }
    const verdict = judgeSpike(
      params,
      coverage,
      (w) => {
        const n = counts.get(id(w));
        if (n === undefined) throw new Error(`spike: window ${id(w)} was not counted beforehand`);
        return n;
      },
      now,
    );
    const what = describeFilter(rule);
    if (verdict.kind === 'unknown') {
      return {
        condition: null,
        value: null,
        threshold: null,
        reason: verdict.reason,
        summary: { firing: '', resolved: '' },
        details: verdict.window
          ? { windowStart: iso(verdict.window.from), windowEnd: iso(verdict.window.to) }
          : {},
      };
    }
    const window = `${iso(verdict.window.from)}/${iso(verdict.window.to)}`;
    return {
      condition: verdict.firing,
      value: verdict.count,
      threshold: verdict.threshold,
      reason: verdict.partial ? 'partial window already over the threshold' : 'complete window',
      summary: {
        firing: `${verdict.count} ${what} in ${formatDuration(rule.window)} (${window}), ${verdict.reference.toFixed(1)} expected`,
        resolved: `${what} back to ${verdict.count} in ${formatDuration(rule.window)} (${window})`,
      },
      details: {
        windowStart: iso(verdict.window.from),
        windowEnd: iso(verdict.window.to),
        count: String(verdict.count),
        reference: verdict.reference.toFixed(2),
        threshold: String(verdict.threshold),
        factor: String(rule.factor),
        min: String(rule.min),
      },
    };
  }

  private async measureNewTerm(rule: NewTermRule, zone: number, now: number): Promise<Measurement> {
    const { repo, terms } = this.deps;
    if (!terms) throw new Error(`alert rule "${rule.name}" (new-term): no term store to read`);
    const plan = planNewTerm(
      { windowMs: rule.window, lookbackMs: rule.lookback },
      await repo.coverage(rule.source, zone),
      now,
    );
    const what = rule.field === 'path' ? `path (depth ${rule.depth ?? 1})` : rule.field;
    if (plan.kind === 'unknown') {
      return {
        condition: null,
        value: null,
        threshold: null,
        reason: plan.reason,
        summary: { firing: '', resolved: '' },
        details: plan.window ? { windowStart: iso(plan.window.from), windowEnd: iso(plan.window.to) } : {},
      };
    }
    const found = await terms.newTerms({
      source: rule.source,
      zone,
      field: termField(rule.field, rule.depth),
      from: plan.window.from,
      to: plan.window.to,
      lookbackFrom: plan.lookbackFrom,
      min: rule.min,
      limit: NAMED_VALUES,
    });
    const verdict = judgeNewTerm(plan, found);
    const window = `${iso(verdict.window.from)}/${iso(verdict.window.to)}`;
    const named = describeNewValues(verdict.values, verdict.total);
    return {
      condition: verdict.firing,
      value: verdict.total,
      threshold: null,
      reason: verdict.total > 0 ? `new: ${named}` : 'no new value in the complete window',
      summary: {
        firing: `${verdict.total} new ${what} value${verdict.total === 1 ? '' : 's'} in ${rule.source} ${window}, not seen in the ${formatDuration(rule.lookback)} before: ${named}`,
        resolved: `no new ${what} value in ${rule.source} ${window}`,
      },
      details: {
        windowStart: iso(verdict.window.from),
        windowEnd: iso(verdict.window.to),
        lookbackStart: iso(plan.lookbackFrom),
        field: what,
        newValues: String(verdict.total),
        ...(verdict.total > 0 ? { values: named } : {}),
        min: String(rule.min),
      },
    };
  }

  private async measureFlatline(
    rule: FlatlineRule,
    zone: number,
    now: number,
    firstEvaluatedAt: number,
  ): Promise<Measurement> {
    const last = await this.deps.repo.lastSuccess(rule.source, zone);
    const age = now - (last ?? firstEvaluatedAt);
    return {
      condition: age > rule.maxAge,
      value: age,
      threshold: rule.maxAge,
      reason: last === null ? 'no successful ingestion yet' : `last success ${iso(last)}`,
      summary: {
        firing: `no successful ${rule.source} ingestion for ${formatDuration(Math.round(age / 60_000) * 60_000)} (bound ${formatDuration(rule.maxAge)})`,
        resolved: `${rule.source} ingestion is fresh again`,
      },
      details: { lastSuccess: last === null ? 'never' : iso(last), maxAge: formatDuration(rule.maxAge) },
    };
  }

  private async measureGuardian(rule: GuardianRule, zone: number): Promise<Measurement> {
    const column = GUARDIAN_COUNTER_COLUMNS[rule.counter];
    const { repo, config } = this.deps;
    const intervalMs = config.schedule.guardianEvery;
    const latest = await repo.latestSnapshot(zone, column);
    const earlier =
      latest &&
      (await repo.latestSnapshot(zone, column, isoBefore(latest.taken_at, minimumGapMs(intervalMs))));
    const verdict = judgeIncrease(latest, earlier, { intervalMs, maxIncrease: rule.maxIncrease }, roughly);
    const none = { summary: { firing: '', resolved: '' }, details: {}, threshold: rule.maxIncrease };
    if (verdict.kind === 'unknown')
      return { ...none, condition: null, value: verdict.value, reason: verdict.reason };
    const { increase, from, to } = verdict;
    return {
      condition: verdict.firing,
      value: increase,
      threshold: rule.maxIncrease,
      reason: `between ${from.taken_at} and ${to.taken_at}`,
      summary: {
        firing: `${rule.counter} rose by ${increase} between snapshots (bound ${rule.maxIncrease})`,
        resolved: `${rule.counter} rose by ${increase}, within the bound of ${rule.maxIncrease}`,
      },
      details: {
        counter: rule.counter,
        increase: String(increase),
        from: from.taken_at,
        to: to.taken_at,
      },
    };
  }
}

/** The ISO time `ms` before `iso` ('' when `iso` is not a time: then no snapshot is that early). */
function isoBefore(iso: string, ms: number): string {
  const t = Date.parse(iso) - ms;
  return Number.isFinite(t) ? new Date(t).toISOString() : '';
}

/** A duration for a reason: to the second under a minute, else to the minute. */
function roughly(ms: number): string {
  return formatDuration(ms < 60_000 ? Math.round(ms / 1000) * 1000 : Math.round(ms / 60_000) * 60_000);
}

function describeFilter(rule: SpikeRule): string {
  const f = rule.filter;
  const parts: string[] = [];
  if (f.statusCodeMin !== undefined || f.statusCodeMax !== undefined) {
    parts.push(`status ${f.statusCodeMin ?? 0}-${f.statusCodeMax ?? 999}`);
  }
  if (f.errorCode) parts.push(`error ${f.errorCode}`);
  if (f.severity) parts.push(`severity ${f.severity}`);
  if (f.ruleId) parts.push(`rule ${f.ruleId}`);
  if (f.status) parts.push(`status ${f.status}`);
  const noun = rule.source === 'origin' ? 'origin errors' : 'Shield events';
  return parts.length ? `${noun} (${parts.join(', ')})` : noun;
}
