// Pure: the schedulers the configuration wants, and what to change to get there from what Redis holds.
import type { Config } from '../config/index.js';
import { ALERTS_SCHEDULER, MAINTENANCE_SCHEDULER, schedulerId, type JobName, type JobData } from './jobs.js';

export interface WantedScheduler {
  id: string;
  repeat: { every: number } | { pattern: string; tz: 'UTC' };
  template: { name: JobName; data: JobData };
}

/** Runs at 00:05 UTC: retention once a day, shortly after the day turns. */
export const MAINTENANCE_PATTERN = '5 0 * * *';

export function wantedSchedulers(config: Config): WantedScheduler[] {
  const { refreshEvery, guardianEvery } = config.schedule;
  const wanted: WantedScheduler[] = [];
  for (const z of config.pullZones) {
    wanted.push({
      id: schedulerId('origin', z.id),
      repeat: { every: refreshEvery },
      template: { name: 'plan', data: { source: 'origin', zone: z.id } },
    });
  }
  for (const z of config.shieldZones) {
    wanted.push({
      id: schedulerId('shield', z.id),
      repeat: { every: refreshEvery },
      template: { name: 'plan', data: { source: 'shield', zone: z.id } },
    });
    wanted.push({
      id: schedulerId('guardian', z.id),
      repeat: { every: guardianEvery },
      template: { name: 'guardian', data: { zone: z.id } },
    });
  }
  if (config.alerts.rules.length > 0) {
    wanted.push({
      id: ALERTS_SCHEDULER,
      repeat: { every: config.alerts.evaluateEvery },
      template: { name: 'alerts', data: {} },
    });
  }
  wanted.push({
    id: MAINTENANCE_SCHEDULER,
    repeat: { pattern: MAINTENANCE_PATTERN, tz: 'UTC' },
    template: { name: 'maintenance', data: {} },
  });
  return wanted;
}

/** What Redis reports of an existing scheduler (the slice of BullMQ's JobSchedulerJson we compare). */
export interface ExistingScheduler {
  key: string;
  name?: string;
  every?: number | undefined;
  pattern?: string | undefined;
  tz?: string | undefined;
  template?: { data?: unknown } | undefined;
}

export interface SchedulerPlan {
  upsert: WantedScheduler[];
  remove: string[];
  keep: string[];
}

function same(w: WantedScheduler, e: ExistingScheduler): boolean {
  const repeatSame =
    'every' in w.repeat
      ? e.every === w.repeat.every && !e.pattern
      : e.pattern === w.repeat.pattern && (e.tz ?? 'UTC') === w.repeat.tz && !e.every;
  return (
    repeatSame &&
    e.name === w.template.name &&
    JSON.stringify(e.template?.data ?? {}) === JSON.stringify(w.template.data)
  );
}

/**
 * Upserts only what is missing or different, so repeated restarts make no writes at all (repeated and
 * concurrent upserts are how BullMQ has produced duplicate schedulers), and removes what is not wanted.
 */
export function planSchedulers(
  wanted: readonly WantedScheduler[],
  existing: readonly ExistingScheduler[],
): SchedulerPlan {
  const byId = new Map(existing.map((e) => [e.key, e]));
  const wantedIds = new Set(wanted.map((w) => w.id));
  const upsert: WantedScheduler[] = [];
  const keep: string[] = [];
  for (const w of wanted) {
    const e = byId.get(w.id);
    if (e && same(w, e)) keep.push(w.id);
    else upsert.push(w);
  }
  const remove = existing.filter((e) => !wantedIds.has(e.key)).map((e) => e.key);
  return { upsert, remove, keep };
}
