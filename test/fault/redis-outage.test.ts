// Scenario 3, short form: Redis killed under a running worker, restarted with its data, or empty.
import { beforeAll, describe, expect, it } from 'vitest';
import { redisOutageScenario, WANTED_SCHEDULERS, type RedisOutageReport } from './scenarios/redis-outage.js';
import { SCENARIO_TIMEOUT_MS, SEED, SHORT } from './short-form.js';

describe(`Redis killed mid-run and restarted with its data (seed ${SEED})`, () => {
  let report: RedisOutageReport;
  beforeAll(async () => {
    report = await redisOutageScenario({
      seed: SEED,
      restart: 'with-data',
      ...SHORT.redis,
      recoverMs: SHORT.redisRecoverMs['with-data'],
    });
  }, SCENARIO_TIMEOUT_MS);

  it('the same worker goes on: the archive ends exact, one scheduler each, and SIGINT stops it', () => {
    expect(report.workerSurvived).toBe(true);
    expect(report.archiveExact).toBe(true);
    expect(report.schedulers).toEqual(WANTED_SCHEDULERS);
    expect(report.stop?.code).toBe(0);
    expect(report.problems, report.notes.join('\n')).toEqual([]);
  });
});

describe(`Redis killed mid-run and restarted empty (seed ${SEED})`, () => {
  let report: RedisOutageReport;
  beforeAll(async () => {
    report = await redisOutageScenario({
      seed: SEED,
      restart: 'empty',
      ...SHORT.redis,
      recoverMs: SHORT.redisRecoverMs.empty,
    });
  }, SCENARIO_TIMEOUT_MS);

  it('the worker survives the outage, the archive stays sound, and SIGINT still stops it', () => {
    expect(report.workerSurvived).toBe(true);
    expect(report.stop?.code).toBe(0);
    expect(
      report.problems.filter((p) =>
        /integrity_check|ledger (archived|quarantined)_entries|hourly rollup|^the .* in /.test(p),
      ),
    ).toEqual([]);
  });

  // Against an empty Redis the worker used to neither reconcile its schedulers again nor plan the days
  // whose jobs were lost (src/redis/redis-watch.ts now does both).
  it('recovery: the days whose jobs Redis lost are archived exactly by the same worker', () => {
    expect(report.archiveExact).toBe(true);
  });
  it('recovery: the schedulers are there again, once each', () => {
    expect(report.schedulers).toEqual(WANTED_SCHEDULERS);
    expect(Object.values(report.upcomingPerScheduler).every((n) => n === 1)).toBe(true);
  });
});
