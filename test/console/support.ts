// An archive for the console's tests: two days of the simulator's data (by default its hostile data:
// terminal escapes and HTML markup in every string) for zones 101 and 201, the first compacted into the
// history's parts, the second left in the store; and a console serving it on loopback, port 0.
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadReaderConfig } from '../../src/config/reader-config.js';
import { loadConfig } from '../../src/config/index.js';
import { configuredOptions } from '../../src/console/configured.js';
import { startConsole, type ConsoleOptions } from '../../src/console/console.js';
import type { ConsoleServer } from '../../src/console/server.js';
import { silentLogger } from '../../src/logger.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import type { Day } from '../../src/time/utc-day.js';
import { writeConfig } from '../support/cli.js';
import { NOW, type Harness } from '../support/harness.js';
import { compactArchive, historyRoot } from '../support/history-files.js';
import { storeHarness, type StoreKind } from '../support/stores.js';

export const DAYS = ['2026-11-20', '2026-11-21'] as [Day, Day];

/** The explorer's filter of zone 201's Shield events over both days. */
export const SHIELD_201_VIEW: Readonly<Record<string, string>> = {
  source: 'shield',
  zone: '201',
  from: `${DAYS[0]}T00:00:00Z`,
  to: `${DAYS[1]}T23:59:59.999Z`,
};

export interface ConsoleArchive {
  h: Harness;
  /** A reader's configuration file: the archive and its history. */
  configPath: string;
}

/** The hostile data the console's tests read (the screenshots take the simulator's plain data). */
const HOSTILE: SimulatorOptions = { hostileText: true, entriesPerDay: 60, pageSize: 25 };

export async function consoleArchive(
  kind: StoreKind,
  sim: SimulatorOptions = HOSTILE,
): Promise<ConsoleArchive> {
  // The simulator's clock: NOW, but at each Guardian snapshot its time (its counters grow with it).
  let simNow = NOW;
  const h = await storeHarness(kind, { ...sim, now: () => simNow });
  for (const day of DAYS) {
    await storeDay(h, day);
    if (day === DAYS[0]) await compactArchive(h, () => NOW, { filter: { to: day } });
  }
  // Two Guardian snapshots of zones 201 and 202 within the dashboards' last 7 days, an hour apart: the
  // two zones' at the same instants, with counters of their own (a dashboard never sums them).
  for (const at of GUARDIAN_TIMES) {
    simNow = at;
    await storeGuardian(h, at);
  }
  simNow = NOW;
  const database = h.databaseUrl ? { path: h.dbPath, url: h.databaseUrl } : { path: h.dbPath };
  const configPath = writeConfig(
    h.dir,
    { database, history: { path: join(h.dir, 'history') } },
    'reader.json',
  );
  return { h, configPath };
}

/** Syncs one more day of zones 101 and 201 into the store (a console serving it sees it at once). */
export async function storeDay(h: Harness, day: Day): Promise<void> {
  const engine = await h.engine({
    pullZones: [101],
    shieldZones: [201],
    history: { path: historyRoot(h) },
  });
  const plan = syncPlan(engine.config, { from: day, to: day, source: ['origin', 'shield'] }, NOW);
  expect((await executeSync(engine, plan)).summary.ok).toBe(true);
}

/** When consoleArchive takes the Guardian snapshots of zones 201 and 202 (ms). */
export const GUARDIAN_TIMES = [NOW - 2 * 3_600_000, NOW - 3_600_000] as const;

/** One Guardian snapshot of each of zones 201 and 202, taken at `at`. */
async function storeGuardian(h: Harness, at: number): Promise<void> {
  const engine = await h.engine({ shieldZones: [201, 202], history: { path: historyRoot(h) } }, () => at);
  const plan = syncPlan(engine.config, { from: DAYS[1], to: DAYS[1], source: ['guardian'] }, at);
  expect((await executeSync(engine, plan)).summary.ok).toBe(true);
}

/** A console over the archive on 127.0.0.1, port 0, its clock the harness's. */
export function serveArchive(a: ConsoleArchive, opts: Partial<ConsoleOptions> = {}): Promise<ConsoleServer> {
  return startConsole(loadReaderConfig({ path: a.configPath }), {
    listen: { host: '127.0.0.1', port: 0 },
    token: undefined,
    logger: silentLogger(),
    now: () => NOW,
    ...opts,
  });
}

/**
 * The worker's configuration over the archive, with one alert rule (`origin-5xx`), an alert of which
 * fires in zone 101 (saved as the evaluator saves it); returns the file's path.
 */
export async function withFiringAlert(a: ConsoleArchive): Promise<string> {
  const path = writeConfig(
    a.h.dir,
    {
      database: { path: a.h.dbPath },
      history: { path: join(a.h.dir, 'history') },
      alerts: {
        rules: [
          {
            name: 'origin-5xx',
            type: 'spike',
            source: 'origin',
            filter: { statusCodeMin: 500 },
            window: '1h',
          },
        ],
      },
    },
    'worker.json',
  );
  const engine = await a.h.engine();
  await engine.store.alerts.save(
    { rule: 'origin-5xx', zone: 101, source: 'origin', fingerprint: 'f' },
    undefined,
    { state: 'firing', since: NOW - 60_000, lastNotifiedAt: null, firstEvaluatedAt: NOW - 120_000 },
    { value: 12, threshold: 10, detail: null },
    [],
    NOW,
  );
  return path;
}

/** A console as `edgelog serve` starts it from a whole configuration (its token, if any, as the env's). */
export function serveConfigured(path: string, token?: string): Promise<ConsoleServer> {
  const options = configuredOptions(
    loadConfig({ path }),
    { host: '127.0.0.1', port: 0 },
    silentLogger(),
    token === undefined ? {} : { EDGELOG_CONSOLE_TOKEN: token },
  );
  return startConsole(loadReaderConfig({ path }), { ...options, now: () => NOW });
}
