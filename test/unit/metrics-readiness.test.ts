// /readyz's judgement over probe results: ready only when every check passes, and each failed check
// says what is wrong and what to do.
import { describe, expect, it } from 'vitest';
import { judgeReadiness, type CheckName, type ProbeResults } from '../../src/monitoring/readiness.js';

const files = [
  { id: 1, name: '0001_archive.sql', checksum: 'a' },
  { id: 2, name: '0002_views.sql', checksum: 'b' },
];
const healthy: ProbeResults = {
  redisDisplay: 'redis://127.0.0.1:6379/',
  redis: { ok: true },
  archivePath: '/srv/edgelog/data/edgelog.db',
  archive: { ok: true },
  migrations: {
    ok: {
      files,
      applied: [
        { id: 1, checksum: 'a' },
        { id: 2, checksum: 'b' },
      ],
    },
  },
  schedulers: { ok: { wanted: ['origin-101', 'maintenance'], present: ['maintenance', 'origin-101'] } },
};

describe('judgeReadiness', () => {
  it('is ready when every probe passed', () => {
    expect(judgeReadiness(healthy)).toEqual({
      ready: true,
      checks: {
        redis: { ok: true },
        archive: { ok: true },
        migrations: { ok: true },
        schedulers: { ok: true },
      },
    });
  });

  it('is ready with schedulers Redis holds beyond those wanted (another configuration may share it)', () => {
    const r = judgeReadiness({
      ...healthy,
      schedulers: { ok: { wanted: ['origin-101'], present: ['origin-101', 'origin-999'] } },
    });
    expect(r.ready).toBe(true);
  });

  it.each<[string, Partial<ProbeResults>, CheckName, RegExp]>([
    [
      'Redis does not answer',
      { redis: { error: 'no PONG within 1000 ms' } },
      'redis',
      /^Redis at redis:\/\/127\.0\.0\.1:6379\/ does not answer: no PONG within 1000 ms \(start it, or check redis\.url\)$/,
    ],
    [
      'the archive is not writable',
      { archive: { error: 'EACCES: permission denied' } },
      'archive',
      /^the archive \/srv\/edgelog\/data\/edgelog\.db is not writable: EACCES: permission denied$/,
    ],
    [
      'a migration is pending',
      { migrations: { ok: { files, applied: [{ id: 1, checksum: 'a' }] } } },
      'migrations',
      /^migrations not applied: 0002_views\.sql \(run `edgelog migrate`, or restart edgelog run\)$/,
    ],
    [
      'an applied migration changed',
      {
        migrations: {
          ok: {
            files,
            applied: [
              { id: 1, checksum: 'a' },
              { id: 2, checksum: 'x' },
            ],
          },
        },
      },
      'migrations',
      /^migrations changed since they were applied: 0002_views\.sql$/,
    ],
    [
      'a newer edgelog migrated the archive',
      {
        migrations: {
          ok: {
            files,
            applied: [
              { id: 1, checksum: 'a' },
              { id: 2, checksum: 'b' },
              { id: 3, checksum: 'c' },
            ],
          },
        },
      },
      'migrations',
      /applied by a newer edgelog: 3 \(upgrade this one\)/,
    ],
    [
      'the migrations cannot be read',
      { migrations: { error: 'no such table: schema_migrations' } },
      'migrations',
      /^cannot read the applied migrations: no such table: schema_migrations$/,
    ],
    [
      'a scheduler is missing',
      { schedulers: { ok: { wanted: ['origin-101', 'maintenance'], present: ['maintenance'] } } },
      'schedulers',
      /^schedulers missing in Redis: origin-101 \(edgelog run creates them at start/,
    ],
    [
      'the schedulers cannot be listed',
      { schedulers: { error: 'Redis is not connected' } },
      'schedulers',
      /^cannot list the schedulers in Redis: Redis is not connected$/,
    ],
  ])('is not ready when %s', (_what, change, check, problem) => {
    const r = judgeReadiness({ ...healthy, ...change });
    expect(r.ready).toBe(false);
    const failed = Object.entries(r.checks).filter(([, c]) => !c.ok);
    expect(failed.map(([name]) => name)).toEqual([check]);
    const verdict = r.checks[check];
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.problem).toMatch(problem);
  });

  it('names every failed check at once (Redis down: Redis and the schedulers)', () => {
    const r = judgeReadiness({
      ...healthy,
      redis: { error: 'no PONG within 1000 ms' },
      schedulers: { error: 'Redis is not connected' },
    });
    expect(
      Object.entries(r.checks)
        .filter(([, c]) => !c.ok)
        .map(([n]) => n),
    ).toEqual(['redis', 'schedulers']);
  });
});
