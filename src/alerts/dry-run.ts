// `alerts check --dry-run`: the rules judged as `alerts check` judges them, against the archive as it
// is, with nothing saved and nothing sent: the store's save is replaced by one that keeps the notices
// it is given (and saves nothing), and those notices become the requests that would be made.
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { AlertSeriesStore, RuleQueries, SilencesStore, TermsStore } from '../store/store.js';
import { AlertEvaluator, type Evaluation, type RuleStateReads } from './evaluator.js';
import { SqlRuleEvaluator } from './sql-evaluator.js';
import { handOver, type Pending } from './notice-groups.js';
import { noticeRequest, single, type Delivery, type NoticeRequest } from './notice-request.js';
import type { Notice } from './payload.js';
import type { RenderText } from './templates.js';

export interface DryRun {
  results: Evaluation[];
  requests: Array<{ hook: string; notices: number; request: NoticeRequest }>;
}

/** A store with a save that keeps the notices it is given and writes nothing (both take them 5th). */
function keeping<S extends RuleStateReads | AlertSeriesStore<Notice>>(
  repo: S,
  kept: Array<Pending<Notice>>,
): S {
  return new Proxy(repo, {
    get(target, prop, receiver) {
      if (prop === 'save') {
        return (...args: Parameters<RuleStateReads['save'] | AlertSeriesStore<Notice>['save']>) => {
          for (const { hook, notice } of args[4]) kept.push({ id: notice.id, hook, notice });
          return Promise.resolve(true);
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export async function dryRun(deps: {
  config: Config;
  repo: RuleStateReads;
  silences: Pick<SilencesStore, 'list'>;
  templates: ReadonlyMap<string, RenderText>;
  logger: Logger;
  now: () => number;
  /** What new-term rules read. @defaultValue none: a new-term rule then fails to evaluate */
  terms?: TermsStore;
  /** Where sql rules run and keep their series' state. @defaultValue none: a sql rule then fails */
  sql?: { series: AlertSeriesStore<Notice>; queries: RuleQueries };
}): Promise<DryRun> {
  const kept: Array<Pending<Notice>> = [];
  const { sql, ...rest } = deps;
  const evaluator = new AlertEvaluator({
    ...rest,
    repo: keeping(deps.repo, kept),
    sql: sql && new SqlRuleEvaluator({ ...rest, series: keeping(sql.series, kept), queries: sql.queries }),
  });
  const results = await evaluator.evaluate();
  // As `alerts check` hands them: every group complete.
  const { single: alone, groups } = handOver(kept, deps.now(), true);
  const deliveries: Array<{ hook: string; delivery: Delivery }> = [
    ...groups.map((g) => ({
      hook: g.hook,
      delivery: { key: g.id, notices: g.members.map((m) => m.notice) },
    })),
    ...alone.map((p) => ({ hook: p.hook, delivery: single(p.notice) })),
  ];
  const requests = deliveries.map(({ hook, delivery }) => ({
    hook,
    notices: delivery.notices.length,
    request: noticeRequest(hook, deps.config.alerts.hooks[hook]!, delivery, deps.templates.get(hook)),
  }));
  return { results, requests };
}
